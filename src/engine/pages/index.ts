/** Long pages in the engine: `pages.remember`, `pages.get`, `pages.forget`, `pages.list`. */

export { isChunk } from '../../core/page/chunk-row.ts'
export { forgetPage } from './forget-page.ts'
export { getPage } from './get-page.ts'
export { listPages } from './list-pages.ts'
export { chunkEmbeddingText, PAGE_TYPE } from './page-rows.ts'
export { type PageWriteDeps, rememberPage } from './remember-page.ts'

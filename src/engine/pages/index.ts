/** Long pages in the engine: `rememberPage`, `getPage`, `forgetPage`, `listPages`. */

export { forgetPage } from './forget-page.ts'
export { getPage } from './get-page.ts'
export { listPages } from './list-pages.ts'
export { chunkEmbeddingText, isChunk, PAGE_TYPE } from './page-rows.ts'
export { type PageWriteDeps, rememberPage } from './remember-page.ts'

/** Long pages: normalising, HTML to text, chunking, update planning, embedding text. */

export { chunkPage, type PageChunk, reassemblePage } from './chunk.ts'
export { type ChunkPlan, planChunkUpdate, type StoredChunk } from './chunk-plan.ts'
export { type EmbeddingSource, embeddingText } from './embedding-text.ts'
export { type HtmlPage, htmlToPage, htmlToText } from './html-to-text.ts'
export { type BlockKind, headingText, type PageSection, parsePage } from './markdown-blocks.ts'
export { normalizePage, validatePage } from './normalize-page.ts'
export { pageHash } from './page-hash.ts'
export {
  DEFAULT_PAGE_CHUNKING,
  type PageChunkOptions,
  resolvePageChunking,
} from './page-options.ts'

/**
 * Bring your memories: `importFrom` reads a ChatGPT or Claude export or a folder (or zip) of
 * Markdown notes into pages; `undoImport` takes one import back out; `exportMarkdown` writes a
 * memory as Markdown files with front matter, zipped. Depends only on the `MemoryApi`
 * contract, so it works with any door (worker client, in-process engine).
 */

export type { ImportSource, NoteFile } from './bytes.ts'
export type { ImportedConversation, ImportOrigin, Turn } from './conversation.ts'
export { type ExportMarkdownOptions, exportMarkdown, markdownFiles } from './export-markdown.ts'
export { importFrom } from './import-from.ts'
export {
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportFromOptions,
  type ImportFromReport,
  type ImportProgress,
} from './options.ts'
export { type UndoImportReport, undoImport } from './undo-import.ts'

/** Export and import (JSONL): the file format, its parsing and checking, and applying it. */

export {
  checkExportOptions,
  EXPORT_FORMAT_VERSION,
  type ExportHeader,
  exportJsonl,
} from './export.ts'
export { type ImportDeps, importMemories } from './import-memories.ts'
export { checkImportOptions } from './import-options.ts'
export { type ParsedImport, parseImport, parseJsonl } from './parse-import.ts'

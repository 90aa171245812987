import type { RememberItem } from '../core/types.ts'
import type { ImportedConversation } from './conversation.ts'

/** The formats {@link importFrom} reads. */
export const IMPORT_FORMATS = ['auto', 'chatgpt', 'claude', 'markdown'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

/** Options for {@link importFrom}. A name not listed is rejected (`BAD_OPTION`). */
export interface ImportFromOptions {
  /**
   * What the source is: a ChatGPT data export (`conversations.json`, or the export zip), a
   * Claude export (`conversations.json`), Markdown notes (a list of `{ path, text }`, a zip, or
   * one note's text), or `'auto'`: told apart by content (a zip's files; a conversation's
   * `mapping` or `chat_messages`), and the report's `detected` says what was found.
   * @default 'auto'
   */
  format?: ImportFormat
  /** Where the pages go. @default 'default' */
  namespace?: string
  /**
   * Names this import: every page and fact it stores is tagged `import:<importId>`, which
   * `undoImport` removes as one step. Lower-case letters, digits, `-` and `_`, 1..48.
   * @default a new id from the clock and a random part, e.g. 'mipk3v1c-4f2a'
   */
  importId?: string
  /** Called after each entry read and each batch of pages written. @default none */
  onProgress?: (progress: ImportProgress) => void
  /**
   * Turns a conversation into facts with the app's own model, called once for each
   * conversation stored or changed by this import (not for one already stored). None is
   * bundled and none runs unless given. Each item is stored with `rememberMany`, tagged with
   * the origin and the import, `source` the origin, `trust: 'untrusted'` and `poison: 'flag'`
   * unless the item says otherwise.
   * @default none
   *
   * @example
   * await importFrom(memory, file, { extract: async (c) => myModel.facts(c.turns) })
   * // => report.facts: the facts stored
   */
  extract?: (conversation: ImportedConversation) => RememberItem[] | Promise<RememberItem[]>
}

/** How far an import has got. */
export interface ImportProgress {
  /** Conversations or notes read so far. */
  read: number
  /** Pages stored or changed so far (unchanged ones not counted). */
  written: number
  /** Bytes of the source read so far (compressed bytes, for a zip). */
  bytes: number
}

/** What an import found and did. */
export interface ImportFromReport {
  importId: string
  format: Exclude<ImportFormat, 'auto'>
  /** What was found, in words: `'ChatGPT export (conversations.json in a zip)'`. */
  detected: string
  /** Conversations or notes read. */
  read: number
  /** Pages stored for the first time, changed (a newer export), and already stored as they are. */
  created: number
  updated: number
  unchanged: number
  /** Chunks written by this import. */
  chunks: number
  /** Chunks the poison screen matched, stored flagged (imports never drop a page for it). */
  flagged: number
  /** Facts stored by `extract`. */
  facts: number
  /** `[[wiki-links]]` between notes stored as `related_to` relations. */
  relations: number
  /** The source ids done (conversation ids, note paths): a re-run skips what they name. */
  done: string[]
  /**
   * Entries left out whole, with why (too long for a page, nothing to say), and stored pages
   * whose `extract` facts the memory refused (the reason starts `its facts:`; the page is done).
   */
  skipped: { entry: number; id: string; reason: string }[]
  bytes: number
}

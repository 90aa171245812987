import { InvalidInputError } from '../core/errors.ts'
import type { MemoryApi } from '../core/types.ts'
import { expectOptions, oneOf, validateName } from '../core/validate.ts'
import { byteChunks, type ImportSource, isZip, joinParts, type NoteFile, peek } from './bytes.ts'
import { importConversations } from './import-conversations.ts'
import { importNotes } from './import-notes.ts'
import { ImportRun } from './import-run.ts'
import { isNotePath } from './notes.ts'
import { IMPORT_FORMATS, type ImportFromOptions, type ImportFromReport } from './options.ts'
import { unzipPieces } from './zip.ts'

const OPTION_NAMES: Record<keyof ImportFromOptions, true> = {
  format: true,
  namespace: true,
  importId: true,
  onProgress: true,
  extract: true,
}
const IMPORT_ID = /^[a-z0-9_-]{1,48}$/
const CONVERSATIONS_FILE = /(^|\/)conversations\.json$/i

/**
 * Brings an assistant's history or a notes folder into a memory: each conversation or note
 * becomes a page (chunked, screened, searchable), tagged with its origin (`chatgpt`, `claude`,
 * `notes`) and `import:<importId>`, dated with the source's own times. Speaks only the
 * `MemoryApi` contract, so it works over any door: `openMemory`'s worker client,
 * `openMemoryInProcess`, a `MemoryEngine`.
 *
 * Safe to repeat: a conversation already stored as it is adds nothing, a longer one (a newer
 * export) replaces its page, and an import cut short resumes when run again. Every text passes
 * the poison screen (matches are stored flagged and counted, never dropped silently); a page
 * with a model's answer, a tool's output or a pasted document in it is `untrusted`.
 *
 * @throws ImportFormatError naming the conversation at fault (what came before it is stored;
 *   nothing of it is); InvalidInputError `BAD_OPTION` for options or a source of another kind.
 * @example
 * const report = await importFrom(memory, file, { format: 'auto' }) // file: the ChatGPT zip
 * // => { format: 'chatgpt', detected: 'ChatGPT export (conversations.json in a zip)', created: 412, … }
 */
export async function importFrom(
  memory: MemoryApi,
  source: ImportSource,
  options: ImportFromOptions = {},
): Promise<ImportFromReport> {
  const run = startRun(memory, options)
  if (Array.isArray(source)) {
    if (run.format !== 'auto' && run.format !== 'markdown') {
      throw new InvalidInputError(
        'BAD_OPTION',
        'source',
        `expected an export file for format ${run.format}, got a list of files`,
      )
    }
    run.found('markdown', `Markdown notes (${source.length} files)`)
    await importNotes(run, source)
    return run.report
  }
  const { head, all } = await peek(counted(byteChunks(source), run), 64)
  if (isZip(head)) await importZip(run, all)
  else if (firstNonSpace(head) === '[' && run.format !== 'markdown') {
    await importConversations(run, all, 'conversations.json')
  } else if (run.format === 'auto' || run.format === 'markdown') {
    const text = new TextDecoder().decode(await collect(all))
    run.found('markdown', 'one Markdown note')
    await importNotes(run, [{ path: 'note.md', text }])
  } else {
    await importConversations(run, all, 'conversations.json')
  }
  return run.report
}

function startRun(memory: MemoryApi, options: ImportFromOptions): ImportRun {
  const o = expectOptions(options, 'options', Object.keys(OPTION_NAMES), '')
  const format = oneOf(o.format ?? 'auto', IMPORT_FORMATS, 'format')
  const namespace = validateName(o.namespace ?? 'default', 'namespace')
  const importId = o.importId ?? newImportId()
  if (typeof importId !== 'string' || !IMPORT_ID.test(importId)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'importId',
      `expected 1..48 lower-case letters, digits, - or _, got ${JSON.stringify(importId)}`,
    )
  }
  for (const name of ['onProgress', 'extract'] as const) {
    if (o[name] !== undefined && typeof o[name] !== 'function') {
      throw new InvalidInputError('BAD_OPTION', name, `expected a function, got ${typeof o[name]}`)
    }
  }
  return new ImportRun(memory, namespace, format, importId, {
    onProgress: o.onProgress as ImportFromOptions['onProgress'],
    extract: o.extract as ImportFromOptions['extract'],
  })
}

function newImportId(): string {
  return `${Date.now().toString(36)}-${Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`
}

/**
 * A zip: its `conversations.json` streamed into the conversation importer as it decompresses
 * (ChatGPT's export zip; a Claude one zipped), else its Markdown files as notes (a vault).
 */
async function importZip(run: ImportRun, bytes: AsyncGenerator<Uint8Array>): Promise<void> {
  const pieces = unzipPieces(bytes, (name) => CONVERSATIONS_FILE.test(name) || isNotePath(name))
  const notes: NoteFile[] = []
  let next = await pieces.next()
  let sawConversations = false
  while (!next.done) {
    const name = next.value.name
    if (CONVERSATIONS_FILE.test(name) && run.format !== 'markdown') {
      sawConversations = true
      async function* file(): AsyncGenerator<Uint8Array> {
        while (!next.done && next.value.name === name) {
          const piece = next.value
          next = await pieces.next()
          yield piece.data
          if (piece.final) return
        }
      }
      await importConversations(run, file(), `${name} in a zip`)
      continue
    }
    const parts: Uint8Array[] = []
    while (!next.done && next.value.name === name) {
      const piece = next.value
      parts.push(piece.data)
      next = await pieces.next()
      if (piece.final) break
    }
    if (isNotePath(name))
      notes.push({ path: name, text: new TextDecoder().decode(joinParts(parts)) })
  }
  if (sawConversations) return
  run.found('markdown', `Markdown notes (a zip of ${notes.length} notes)`)
  await importNotes(run, notes)
}

async function* counted(
  chunks: AsyncGenerator<Uint8Array>,
  run: ImportRun,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    run.report.bytes += chunk.length
    yield chunk
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  for await (const c of chunks) parts.push(c)
  return joinParts(parts)
}

function firstNonSpace(head: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, '')
  return /\S/.exec(text)?.[0]
}

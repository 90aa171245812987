import { InvalidInputError } from '../core/errors.ts'
import type { MemoryApi, RelationKind } from '../core/types.ts'
import { RELATION_KINDS } from '../core/vocabulary.ts'
import type { NoteFile } from './bytes.ts'
import type { ImportRun } from './import-run.ts'
import { isNotePath, linkResolver, type ParsedNote, readNote } from './notes.ts'
import { stablePageId } from './page-lines.ts'
import { storedPages } from './stored-pages.ts'

/**
 * Stores each Markdown note as a page (front matter → tags and dates; headings and text as
 * written; `trust` left to the import's default, `'unverified'`: the user's own notes), then
 * each `[[wiki-link]]` to another note as a `related_to` relation between the two pages' first
 * chunks, and each `relations` entry an export wrote (`"supersedes <page id>"`).
 */
export async function importNotes(run: ImportRun, files: readonly NoteFile[]): Promise<void> {
  const notes: ParsedNote[] = []
  files.forEach((file, i) => {
    if (!isNoteFile(file, i)) return
    if (isNotePath(file.path) && !isFactsFile(file)) notes.push(readNote(file))
  })
  const pageIds = new Map<ParsedNote, string>()
  // A front matter id → the page id it goes by here, for the `relations` entries naming it.
  const assigned = new Map<string, string>()
  for (const [i, note] of notes.entries()) {
    run.entryRead()
    const pageId =
      note.id === undefined
        ? stablePageId('note', run.namespace, note.path)
        : await run.pages.homeId(note.id, stablePageId('note', run.namespace, note.id))
    if (note.id !== undefined) assigned.set(note.id, pageId)
    const meta: Record<string, unknown> = {
      origin: 'notes',
      path: note.path,
      importId: run.report.importId,
    }
    try {
      await run.pages.add(
        {
          pageId,
          title: note.title,
          text: note.text.trim() === '' ? note.title : note.text,
          source: 'notes',
          tags: run.tagsFor('notes', note.tags),
          ...(note.trust ? { trust: note.trust } : {}),
          ...(note.createdAt !== undefined ? { createdAt: note.createdAt } : {}),
          ...(note.updatedAt !== undefined ? { updatedAt: note.updatedAt } : {}),
          ...(note.happenedAt !== undefined ? { happenedAt: note.happenedAt } : {}),
          ...(note.happenedUntil !== undefined ? { happenedUntil: note.happenedUntil } : {}),
          meta,
        },
        { entry: i + 1, id: note.path },
      )
      pageIds.set(note, pageId)
    } catch (error) {
      if (error instanceof InvalidInputError) run.skip(i + 1, note.path, error.message)
      else throw error
    }
  }
  await run.pages.flush()
  run.report.relations += await linkNotes(run.memory, run.namespace, notes, pageIds, assigned)
}

/** The export's file of facts is not a note: its facts came with the JSONL export. */
function isFactsFile(file: NoteFile): boolean {
  return (
    /(^|\/)facts\.md$/i.test(file.path) && /^---\s*\n(?:.*\n)*?type:\s*"?facts"?/m.test(file.text)
  )
}

function isNoteFile(file: unknown, i: number): file is NoteFile {
  const f = file as Partial<NoteFile> | null
  if (typeof f?.path === 'string' && typeof f.text === 'string') return true
  throw new InvalidInputError(
    'BAD_OPTION',
    `source[${i}]`,
    'expected { path, text } with two strings',
  )
}

async function linkNotes(
  memory: MemoryApi,
  namespace: string,
  notes: readonly ParsedNote[],
  pageIds: ReadonlyMap<ParsedNote, string>,
  assigned: ReadonlyMap<string, string>,
): Promise<number> {
  const resolve = linkResolver(notes)
  const wanted: { from: string; to: string; kind: RelationKind }[] = []
  for (const note of notes) {
    const from = pageIds.get(note)
    if (!from) continue
    for (const link of note.links) {
      const to = resolve(link)
      const toId = to && pageIds.get(to)
      if (toId && toId !== from) wanted.push({ from, to: toId, kind: 'related_to' })
    }
    for (const entry of note.relations) {
      const [kind, named] = entry.split(/\s+/)
      const to = named && (assigned.get(named) ?? named)
      if (to && to !== from && (RELATION_KINDS as readonly string[]).includes(kind!)) {
        wanted.push({ from, to, kind: kind as RelationKind })
      }
    }
  }
  if (wanted.length === 0) return 0
  const firstChunks = await storedPages(memory, namespace)
  let made = 0
  for (const edge of wanted) {
    const from = firstChunks.get(edge.from)
    const to = firstChunks.get(edge.to)
    if (!from || !to) continue
    await memory.relations.add(from, to, edge.kind)
    made++
  }
  return made
}

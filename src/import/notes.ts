import type { NoteFile } from './bytes.ts'
import { toMillis } from './conversation.ts'
import { type FrontMatter, splitFrontMatter } from './front-matter.ts'

/** A Markdown note read from a folder: what its page will hold and where it links. */
export interface ParsedNote {
  path: string
  title: string
  /** The note after its front matter: headings, wiki-links and all, as written. */
  text: string
  /** From the front matter's `tags` (or `tag`), lower-cased, `#` and spaces taken out. */
  tags: string[]
  createdAt?: number
  updatedAt?: number
  /**
   * When the note's subject happened: the front matter's `happened` (what `exportMarkdown`
   * writes), else its `date` (a journal's day); `happenedUntil` from `happened_until`.
   */
  happenedAt?: number
  happenedUntil?: number
  /** The front matter's `id` (what `exportMarkdown` writes): the page it restores. */
  id?: string
  /** Targets of its `[[wiki-links]]`, as written (`Lisbon`, `Trips/Lisbon`), each once. */
  links: string[]
  /**
   * `'untrusted'` when the front matter says so (an exported conversation): a note may lower
   * its trust, never raise it.
   */
  trust?: 'untrusted'
  /** The front matter's `relations` (`"supersedes note-1a2b…"`): edges an export wrote. */
  relations: string[]
}

/** Front matter keys read as the note's dates, first found wins. */
const CREATED_KEYS = ['created', 'date', 'created_at', 'createdat']
const UPDATED_KEYS = ['updated', 'modified', 'updated_at', 'updatedat', 'lastmod']
/** Keys read as when the note's subject happened: not `created`, which dates the file. */
const HAPPENED_KEYS = ['happened', 'happened_at', 'happenedat', 'date']
const HAPPENED_UNTIL_KEYS = ['happened_until', 'happeneduntil']

// `[[Target]]`, `[[Target|shown]]`, `[[Target#Heading]]`; the target is what names a note.
const WIKI_LINK = /\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g

/**
 * @example
 * readNote({ path: 'Trips/Lisbon.md', text: '---\ntags: [trip]\ncreated: 2024-05-01\n---\nSee [[Porto]].' })
 * // => { path: 'Trips/Lisbon.md', title: 'Lisbon', text: 'See [[Porto]].', tags: ['trip'],
 * //      createdAt: 1714521600000, links: ['Porto'] }
 */
export function readNote(file: NoteFile): ParsedNote {
  const { data, body } = splitFrontMatter(file.text)
  const note: ParsedNote = {
    path: file.path,
    title: titleOf(data, body, file.path),
    text: body,
    tags: tagsOf(data),
    links: [...new Set([...body.matchAll(WIKI_LINK)].map((m) => m[1]!.trim()))],
    relations: Array.isArray(data.relations) ? data.relations : [],
  }
  const createdAt = dateOf(data, CREATED_KEYS)
  const updatedAt = dateOf(data, UPDATED_KEYS) ?? file.modifiedAt
  if (createdAt !== undefined) note.createdAt = createdAt
  if (updatedAt !== undefined) note.updatedAt = updatedAt
  const happenedAt = dateOf(data, HAPPENED_KEYS)
  const happenedUntil = dateOf(data, HAPPENED_UNTIL_KEYS)
  if (happenedAt !== undefined) note.happenedAt = happenedAt
  if (happenedAt !== undefined && happenedUntil !== undefined && happenedUntil >= happenedAt)
    note.happenedUntil = happenedUntil
  if (typeof data.id === 'string' && data.id !== '') note.id = data.id
  if (data.trust === 'untrusted') note.trust = 'untrusted'
  return note
}

function titleOf(data: FrontMatter, body: string, path: string): string {
  if (typeof data.title === 'string' && data.title.trim() !== '') return data.title
  const h1 = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body)
  if (h1 && body.trimStart().startsWith('#')) return h1[1]!
  return baseName(path)
}

function tagsOf(data: FrontMatter): string[] {
  const raw = data.tags ?? data.tag ?? []
  const list = Array.isArray(raw) ? raw : raw.split(/[,\s]+/)
  const tags = list
    .map((t) => t.trim().replace(/^#/, '').replace(/\s+/g, '-').toLowerCase().slice(0, 64))
    .filter((t) => t !== '')
  return [...new Set(tags)]
}

function dateOf(data: FrontMatter, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const v = data[key]
    if (typeof v === 'string') {
      const ms = toMillis(v)
      if (ms !== undefined) return ms
    }
  }
  return undefined
}

/** `Trips/Lisbon.md` → `Lisbon`. */
export function baseName(path: string): string {
  const name = path.split('/').pop() ?? path
  return name.replace(/\.(md|markdown)$/i, '')
}

/**
 * Resolves a wiki-link target to one of the notes, as Obsidian does: by path without the
 * extension, else by file name, else by title; case-insensitive.
 */
export function linkResolver(
  notes: readonly ParsedNote[],
): (target: string) => ParsedNote | undefined {
  const byPath = new Map<string, ParsedNote>()
  const byName = new Map<string, ParsedNote>()
  const byTitle = new Map<string, ParsedNote>()
  for (const n of notes) {
    byPath.set(n.path.replace(/\.(md|markdown)$/i, '').toLowerCase(), n)
    if (!byName.has(baseName(n.path).toLowerCase())) byName.set(baseName(n.path).toLowerCase(), n)
    if (!byTitle.has(n.title.toLowerCase())) byTitle.set(n.title.toLowerCase(), n)
  }
  return (target) => {
    const key = target.replace(/\.(md|markdown)$/i, '').toLowerCase()
    return byPath.get(key) ?? byName.get(key) ?? byTitle.get(key)
  }
}

/** Whether a path names a Markdown note (and not a file inside a dot folder such as `.obsidian`). */
export function isNotePath(path: string): boolean {
  return /\.(md|markdown)$/i.test(path) && !path.split('/').some((part) => part.startsWith('.'))
}

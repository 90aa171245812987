import { strToU8, zipSync } from 'fflate'
import type { Memory, MemoryApi, Relation } from '../core/types.ts'
import type { NoteFile } from './bytes.ts'
import { writeFrontMatter } from './front-matter.ts'

/** Options for {@link exportMarkdown} and {@link markdownFiles}. */
export interface ExportMarkdownOptions {
  /** Only this namespace. @default 'default' */
  namespace?: string
  /**
   * Add the JSONL export (`memories.jsonl`, `transfer.export`) to the zip: the complete copy
   * that `transfer.import` restores field for field, beside the readable one. @default true
   */
  jsonl?: boolean
}

/**
 * The memory as Markdown, zipped: `pages/<title>.md` for each page, with front matter (`id`,
 * `type`, `title`, `tags`, `created`, `updated`, `happened` and `happened_until` when the page
 * has them, `confidence`, `trust`, `source`, `relations`), `facts.md` with every other memory,
 * and `memories.jsonl`. The pages read back through `importFrom(…, { format: 'markdown' })`
 * with their texts, tags and dates (`happenedAt`/`happenedUntil` included).
 *
 * @example
 * const zip = await exportMarkdown(memory)
 * // => Uint8Array (a zip): pages/Trip to Lisbon.md, facts.md, memories.jsonl
 */
export async function exportMarkdown(
  memory: MemoryApi,
  options: ExportMarkdownOptions = {},
): Promise<Uint8Array> {
  const files = await markdownFiles(memory, options)
  const entries: Record<string, Uint8Array> = {}
  for (const f of files) entries[f.path] = strToU8(f.text)
  if (options.jsonl !== false) {
    entries['memories.jsonl'] = strToU8(
      await memory.transfer.export({ namespace: options.namespace ?? 'default' }),
    )
  }
  return zipSync(entries, { level: 6 })
}

/** The Markdown files {@link exportMarkdown} zips, unzipped. */
export async function markdownFiles(
  memory: MemoryApi,
  options: ExportMarkdownOptions = {},
): Promise<NoteFile[]> {
  const namespace = options.namespace ?? 'default'
  const rows = await allRows(memory, namespace)
  const chunks = new Map<string, Memory[]>()
  const pageOf = new Map<string, string>()
  const facts: Memory[] = []
  for (const m of rows) {
    if (m.pageId === undefined) {
      facts.push(m)
      continue
    }
    pageOf.set(m.id, m.pageId)
    const held = chunks.get(m.pageId)
    if (held) held.push(m)
    else chunks.set(m.pageId, [m])
  }
  const target = (id: string) => pageOf.get(id) ?? id
  const files: NoteFile[] = []
  const used = new Set<string>()
  for (const [pageId, list] of chunks) {
    const page = await memory.pages.get(pageId)
    if (!page) continue
    const first = list.find((m) => m.chunk === 0) ?? list[0]!
    const head = writeFrontMatter({
      id: pageId,
      type: 'page',
      title: page.title,
      ...(await commonFields(memory, list, { ...page, ...happened(first) }, first, target)),
    })
    files.push({
      path: uniquePath(`pages/${fileName(page.title)}`, used),
      text: `${head}\n${page.text}`,
    })
  }
  files.push({ path: 'facts.md', text: await factsFile(memory, facts, target) })
  return files
}

async function allRows(memory: MemoryApi, namespace: string): Promise<Memory[]> {
  const out: Memory[] = []
  let cursor: string | undefined
  do {
    const page = await memory.list({ namespace, limit: 1000, ...(cursor ? { cursor } : {}) })
    out.push(...page.items)
    cursor = page.cursor
  } while (cursor)
  return out.reverse()
}

/**
 * The front matter a page and a fact share, in the order both write it: `described` gives tags,
 * dates and source (the page, or the fact), `scored` confidence and trust (its first chunk).
 */
async function commonFields(
  memory: MemoryApi,
  rows: readonly Memory[],
  described: Pick<
    Memory,
    'tags' | 'createdAt' | 'updatedAt' | 'source' | 'happenedAt' | 'happenedUntil'
  >,
  scored: Pick<Memory, 'confidence' | 'trust'>,
  target: (id: string) => string,
): Promise<Record<string, string | number | string[]>> {
  const relations = await outgoing(memory, rows, target)
  return {
    tags: described.tags.filter((t) => !t.startsWith('import:')),
    created: new Date(described.createdAt).toISOString(),
    updated: new Date(described.updatedAt).toISOString(),
    ...happenedFields(described),
    confidence: scored.confidence,
    trust: scored.trust,
    source: described.source,
    relations: relations.map((r) => `${r.kind} ${target(r.to)}`),
  }
}

/** A page's time is its chunks' (each carries the page's): the first chunk's. */
function happened(first: Memory): Pick<Memory, 'happenedAt' | 'happenedUntil'> {
  const out: Pick<Memory, 'happenedAt' | 'happenedUntil'> = {}
  if (first.happenedAt !== undefined) out.happenedAt = first.happenedAt
  if (first.happenedUntil !== undefined) out.happenedUntil = first.happenedUntil
  return out
}

/** `happened` and `happened_until` as ISO instants, when the memory has them (read back by `readNote`). */
function happenedFields(m: Pick<Memory, 'happenedAt' | 'happenedUntil'>): Record<string, string> {
  const out: Record<string, string> = {}
  if (m.happenedAt !== undefined) out.happened = new Date(m.happenedAt).toISOString()
  if (m.happenedUntil !== undefined) out.happened_until = new Date(m.happenedUntil).toISOString()
  return out
}

/** Edges leaving these memories for memories outside them (a page's own chunks are one page). */
async function outgoing(
  memory: MemoryApi,
  from: readonly Memory[],
  target: (id: string) => string,
): Promise<Relation[]> {
  const own = new Set(from.map((m) => m.id))
  const seen = new Set<string>()
  const out: Relation[] = []
  for (const m of from) {
    for (const r of await memory.relations.of(m.id)) {
      if (!own.has(r.from) || own.has(r.to)) continue
      const key = `${r.kind} ${target(r.to)}`
      if (seen.has(key)) continue
      seen.add(key)
      out.push(r)
    }
  }
  return out
}

async function factsFile(
  memory: MemoryApi,
  facts: readonly Memory[],
  target: (id: string) => string,
): Promise<string> {
  const parts = [writeFrontMatter({ type: 'facts', count: facts.length })]
  for (const f of facts) {
    const head = writeFrontMatter({
      id: f.id,
      type: f.type,
      ...(await commonFields(memory, [f], f, f, target)),
    })
    // Each fact's fields as a YAML block under its id, so the file reads as a list.
    const yaml = head.replace(/^---\n|---\n$/g, '')
    parts.push(`\n## ${f.id}\n\n\`\`\`yaml\n${yaml}\`\`\`\n\n${f.text}\n`)
  }
  return parts.join('')
}

/** A title as a file name on every system: no path separators or reserved characters. */
function fileName(title: string): string {
  const base = title
    .replace(/[\\/:*?"<>|#^[\]\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return (base === '' ? 'Untitled' : base).slice(0, 100)
}

function uniquePath(stem: string, used: Set<string>): string {
  let path = `${stem}.md`
  for (let n = 2; used.has(path.toLowerCase()); n++) path = `${stem} ${n}.md`
  used.add(path.toLowerCase())
  return path
}

import type { ExportOptions, Memory } from '../../core/types.ts'
import { booleanOr, expectOptions, validateName } from '../../core/validate.ts'
import { vectorToBase64 } from '../../core/vector/base64.ts'
import { type EngramDatabase, storedKeys, type VectorRow } from '../../storage/index.ts'
import { edgesOf } from '../relations.ts'
import { importableMeta } from './plain-meta.ts'

/** Bump when the line format changes incompatibly. */
export const EXPORT_FORMAT_VERSION = 1

/** First line of an export. */
export interface ExportHeader {
  format: 'engram'
  version: number
  model: string | null
  dims: number
  exportedAt: string
  /** Memory lines that follow (page chunks included: a chunk is a memory line with `page`). */
  count: number
  /** Relation lines (`{"relation": {from, to, kind, createdAt}}`) after the memory lines. */
  relations?: number
  /** Ids whose `meta` (from an older version) JSON could not carry whole: exported with what it could. */
  repaired?: string[]
  /**
   * Ids of rows that could not be written at all, so are not in the file: a `meta` beyond
   * repair, or (encrypted at rest) a row that does not open, never exported as it stands.
   */
  skipped?: string[]
}

/**
 * One exported memory: every field but the derived `key` (a chunk's `pageId`, `chunk` and
 * `page` included); `vector` is base64 of the float32 bytes, when asked for.
 */
type ExportLine = Omit<Memory, 'key'> & { vector?: string }

const EXPORT_OPTIONS: Record<keyof ExportOptions, true> = { namespace: true, vectors: true }

/**
 * Checks `transfer.export` options.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, an unknown name, `vectors` not a
 *   boolean) and what a namespace's check throws.
 */
export function checkExportOptions(options: unknown): { namespace?: string; vectors: boolean } {
  const o = expectOptions(options, 'options', Object.keys(EXPORT_OPTIONS), '')
  const checked: { namespace?: string; vectors: boolean } = {
    vectors: booleanOr(o.vectors, false, 'vectors'),
  }
  if (o.namespace !== undefined) checked.namespace = validateName(o.namespace, 'namespace')
  return checked
}

/**
 * Writes the export: a header, then one line per memory, then the relations between exported
 * memories. One row never blocks the rest: a row whose `meta` JSON cannot carry (a cycle or a
 * BigInt stored by an older version) is written with what can be carried and named in
 * `repaired`; a row that cannot be written at all is left out and named in `skipped`.
 */
export async function exportJsonl(
  db: EngramDatabase,
  options: ExportOptions & { model: string | null; dims: number; now: number },
): Promise<string> {
  const { model, dims, now, ...given } = options
  const { namespace, vectors } = checkExportOptions(given)
  const { rows, unreadable } = await readMemories(db, namespace)
  const vectorRows = vectors ? await db.vectors.bulkGet(rows.map((r) => r.id)) : []
  const header: ExportHeader = {
    format: 'engram',
    version: EXPORT_FORMAT_VERSION,
    model,
    dims,
    exportedAt: new Date(now).toISOString(),
    count: 0,
  }
  const lines = memoryLines(rows, vectorRows, model, header)
  if (unreadable.length > 0) header.skipped = [...(header.skipped ?? []), ...unreadable].sort()
  const relationLines = await relationLinesOf(db, rows)
  if (relationLines.length > 0) header.relations = relationLines.length
  return `${[JSON.stringify(header), ...lines, ...relationLines].join('\n')}\n`
}

/**
 * The memories to export, by id, and (encrypted at rest) the ids stored but refused because
 * they do not open: keys and rows in one transaction, so a key without its row is such a row.
 */
async function readMemories(
  db: EngramDatabase,
  namespace: string | undefined,
): Promise<{ rows: Memory[]; unreadable: string[] }> {
  const chosen = () =>
    namespace === undefined
      ? db.memories.orderBy('id')
      : db.memories.where('namespace').equals(namespace)
  return db.transaction('r', db.memories, async () => {
    const [rows, keys] = await Promise.all([
      namespace === undefined ? chosen().toArray() : chosen().sortBy('id'),
      db.atRest.encrypted ? storedKeys(db, db.memories, chosen) : [],
    ])
    const read = new Set(rows.map((r) => r.id))
    return { rows, unreadable: keys.filter((k) => !read.has(k)) }
  })
}

/** The memory lines; the header's `count`, `repaired` and `skipped` filled in on the way. */
function memoryLines(
  rows: readonly Memory[],
  vectorRows: readonly (VectorRow | undefined)[],
  model: string | null,
  header: ExportHeader,
): string[] {
  const lines: string[] = []
  const repaired: string[] = []
  const skipped: string[] = []
  rows.forEach((row, i) => {
    const written = exportLine(row, vectorRows[i], model)
    if (written === undefined) skipped.push(String(row.id))
    else {
      lines.push(written.line)
      if (written.repaired) repaired.push(row.id)
    }
  })
  header.count = lines.length
  if (repaired.length > 0) header.repaired = repaired
  if (skipped.length > 0) header.skipped = skipped
  return lines
}

/** Only edges whose both ends are in this file: an import has nothing to hang the others on. */
async function relationLinesOf(db: EngramDatabase, rows: readonly Memory[]): Promise<string[]> {
  const exported = new Set(rows.map((r) => r.id))
  const edges = (await edgesOf(db, [...exported])).filter(
    (e) => exported.has(e.from) && exported.has(e.to),
  )
  return edges.map(({ from, to, kind, createdAt }) =>
    JSON.stringify({ relation: { from, to, kind, createdAt } }),
  )
}

/** One row as a line, its `meta` reduced to what an import accepts; undefined when impossible. */
function exportLine(
  row: Memory,
  vector: VectorRow | undefined,
  model: string | null,
): { line: string; repaired: boolean } | undefined {
  try {
    const { key: _key, ...rest } = row
    const line: ExportLine = rest
    let repaired = false
    if (row.meta !== undefined) {
      const meta = importableMeta(row.meta)
      repaired = meta.repaired
      if (meta.value === undefined) delete line.meta
      else line.meta = meta.value
    }
    if (vector && vector.model === model) line.vector = vectorToBase64(vector.vector)
    return { line: JSON.stringify(line), repaired }
  } catch {
    return undefined
  }
}

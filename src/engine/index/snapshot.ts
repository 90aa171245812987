import type { AsPlainObject } from 'minisearch'
import { analyze } from '../../core/tokenize.ts'
import type { Memory } from '../../core/types.ts'
import { VectorIndex, type VectorIndexSnapshot } from '../../core/vector/index.ts'
import type { EngramDatabase, SnapshotRow } from '../../storage/index.ts'
import { IndexSet } from './index-set.ts'
import { KeywordIndex, type KeywordIndexOptions } from './keyword-index.ts'

/**
 * Bump when the shape of `SnapshotData` changes. 2: namespace+type groups and a digest. 3: the
 * catalogue in a row of its own, and the recall-counter mark it reflects.
 */
export const SNAPSHOT_VERSION = 3
const SNAPSHOT_NAME = 'indexes'
/**
 * The catalogue (every memory row, as one JSON text) beside the indexes, so an open reads one
 * value instead of every row (1.7 s of a 3.2 s cold start at 100k, issue 11). A row of its own:
 * IndexedDB caps one value's size, and the indexes are already most of that at 100k.
 */
const CATALOGUE_NAME = 'indexes-catalogue'
/**
 * A number that every flush of the recall counters bumps, in the flush's transaction: the one
 * change to the memory rows that writes no change-log entry, so the only way to tell that a
 * saved catalogue's counters are behind the table.
 */
const COUNTERS_NAME = 'recall-counters'

/**
 * Text whose analysis fingerprints the tokeniser, stop words and stemmer: a change to any of them
 * changes the hash, so a snapshot built by older code is rebuilt instead of silently loaded.
 */
const ANALYZER_PROBE =
  'The owners were running auth_handler.ts with --no-verify on FH-2291; parseJSONFile said "ECONNRESET" at 10:45 about their cities'

interface SnapshotData {
  keyword: AsPlainObject
  vector: VectorIndexSnapshot | null
  /** The namespace+type numbering the vector rows were filed under. */
  groups: [string, number][]
  /** {@link digestOf} at save time: a truncated or damaged image no longer matches it. */
  digest: string
}

interface CatalogueData {
  /** JSON of every memory row: one string clones and parses far faster than 100k objects. */
  rows: string
  /** The recall-counter mark the rows reflect; -1 when unknown (another tab flushed too). */
  counters: number
  /** The `digest` of the index image saved with it: the two rows belong together. */
  digest: string
}

/** Everything that changes what the indexes contain, hashed. */
export function optionsHash(keywordOptions: Partial<KeywordIndexOptions>): string {
  const keyword = new KeywordIndex(keywordOptions)
  return fnv1aHex(`${keyword.fingerprint()}|${analyze(ANALYZER_PROBE).join(' ')}`)
}

function fnv1aHex(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

export interface SnapshotStamp {
  seq: number
  optionsHash: string
  model: string | null
  count: number
  now: number
  /** The recall-counter mark the catalogue reflects (see {@link readCountersMark}). */
  counters: number
}

/**
 * Counts that any truncation changes: documents, terms, postings, vector rows and their arrays.
 * Cheaper than hashing every byte and enough to catch an image cut short or stitched together;
 * it walks the postings once, which loading does anyway.
 */
function digestOf(data: Omit<SnapshotData, 'digest'>): string {
  const { keyword, vector, groups } = data
  let postings = 0
  for (const [, fields] of keyword.index) {
    for (const entry of Object.values(fields)) postings += Object.keys(entry).length
  }
  const parts = [
    keyword.documentCount,
    Object.keys(keyword.documentIds).length,
    Object.keys(keyword.fieldLength).length,
    keyword.index.length,
    postings,
    groups.length,
    vector ? vector.ids.length : -1,
    vector ? vector.codes.length : -1,
    vector ? vector.scales.length : -1,
    vector ? vector.signs.length : -1,
    vector ? vector.groups.length : -1,
    vector?.vectors ? vector.vectors.length : -1,
  ]
  return parts.join(':')
}

export async function saveSnapshot(
  db: EngramDatabase,
  indexes: IndexSet,
  stamp: SnapshotStamp,
): Promise<void> {
  const image = {
    keyword: indexes.keyword.toJS(),
    vector: indexes.vectors && indexes.vectors.size > 0 ? indexes.vectors.serialize() : null,
    groups: indexes.groupEntries(),
  }
  const data: SnapshotData = { ...image, digest: digestOf(image) }
  const catalogue: CatalogueData = {
    rows: JSON.stringify([...indexes.catalogue.values()]),
    counters: stamp.counters,
    digest: data.digest,
  }
  const row = (name: string, data: unknown): SnapshotRow => ({
    name,
    version: SNAPSHOT_VERSION,
    seq: stamp.seq,
    optionsHash: stamp.optionsHash,
    model: stamp.model,
    count: stamp.count,
    createdAt: stamp.now,
    data,
  })
  await db.transaction('rw', db.snapshots, () =>
    db.snapshots.bulkPut([row(SNAPSHOT_NAME, data), row(CATALOGUE_NAME, catalogue)]),
  )
}

/** The recall-counter mark now: 0 before any flush. Inside the caller's transaction, if any. */
export async function readCountersMark(db: EngramDatabase): Promise<number> {
  return (await db.snapshots.get(COUNTERS_NAME))?.seq ?? 0
}

/** Bumps the mark; call inside the transaction that flushes the counters. Returns the new one. */
export async function bumpCountersMark(db: EngramDatabase, now: number): Promise<number> {
  const seq = (await readCountersMark(db)) + 1
  await db.snapshots.put({
    name: COUNTERS_NAME,
    version: SNAPSHOT_VERSION,
    seq,
    optionsHash: '',
    model: null,
    count: 0,
    createdAt: now,
    data: null,
  })
  return seq
}

/**
 * The catalogue saved with the index image `digest` and stamped like `row`, parsed; undefined
 * when it is missing, from another save or damaged (the caller reads the rows instead).
 */
function catalogueOf(
  row: SnapshotRow | undefined,
  stamp: SnapshotRow,
  digest: string,
): { rows: Memory[]; counters: number } | undefined {
  const data = row?.data as CatalogueData | undefined
  if (!row || row.version !== stamp.version || row.seq !== stamp.seq) return undefined
  if (!data || data.digest !== digest || typeof data.rows !== 'string') return undefined
  try {
    const rows = JSON.parse(data.rows) as unknown
    if (!Array.isArray(rows) || rows.length !== stamp.count) return undefined
    return { rows: rows as Memory[], counters: data.counters }
  } catch {
    return undefined
  }
}

/** Why a snapshot was not used, for stats and logs. */
export type SnapshotRejection = 'missing' | 'version' | 'options' | 'model' | 'corrupt'

/**
 * Loads the saved indexes if they were built with the same options and model; otherwise says
 * why not. A snapshot that does not match its digest, or throws while loading, counts as corrupt
 * and is deleted. The caller still checks the loaded indexes against the tables.
 */
export async function loadSnapshot(
  db: EngramDatabase,
  expected: { optionsHash: string; model: string | null },
  keywordOptions: Partial<KeywordIndexOptions>,
): Promise<{ indexes: IndexSet; row: SnapshotRow } | { rejected: SnapshotRejection }> {
  const [row, catalogueRow] = await db.transaction('r', db.snapshots, () =>
    db.snapshots.bulkGet([SNAPSHOT_NAME, CATALOGUE_NAME]),
  )
  if (!row) return { rejected: 'missing' }
  if (row.version !== SNAPSHOT_VERSION) return { rejected: 'version' }
  if (row.optionsHash !== expected.optionsHash) return { rejected: 'options' }
  const data = row.data as SnapshotData | undefined
  if (row.model !== expected.model && data?.vector) return { rejected: 'model' }
  try {
    if (!data || typeof data !== 'object' || !data.keyword) throw new Error('no keyword index')
    if (!Array.isArray(data.groups) || data.digest !== digestOf(data)) {
      throw new Error('digest mismatch')
    }
    const keyword = new KeywordIndex(keywordOptions, data.keyword)
    const vectors = data.vector ? VectorIndex.deserialize(data.vector) : null
    if (row.count !== keyword.size) throw new Error('count mismatch')
    const indexes = new IndexSet(keyword, vectors, data.groups)
    const catalogue = catalogueOf(catalogueRow, row, data.digest)
    if (catalogue) indexes.restoreCatalogue(catalogue.rows, catalogue.counters)
    return { indexes, row }
  } catch {
    await deleteSnapshot(db)
    return { rejected: 'corrupt' }
  }
}

export async function deleteSnapshot(db: EngramDatabase): Promise<void> {
  await db.snapshots.bulkDelete([SNAPSHOT_NAME, CATALOGUE_NAME])
}

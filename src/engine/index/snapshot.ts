import { analyze } from '../../core/tokenize.ts'
import type { Memory } from '../../core/types.ts'
import { VectorIndex, type VectorIndexSnapshot } from '../../core/vector/index.ts'
import type { EngramDatabase, SnapshotRow } from '../../storage/index.ts'
import { IndexSet } from './index-set.ts'
import type { KeywordImage } from './keyword-image.ts'
import { KeywordIndex, type KeywordIndexOptions } from './keyword-index.ts'
import {
  type CatalogueSegment,
  hashText,
  rowsPerVectorSegment,
  segmentRows,
  VECTOR_SEGMENT_BYTES,
  type VectorHead,
  type VectorSegment,
  vectorParts,
  vectorSegments,
} from './segments.ts'

/**
 * Bump when the shape of the saved rows changes. 2: namespace+type groups and a digest. 3: the
 * catalogue in a row of its own, and the recall-counter mark it reflects. 4: segments (issue
 * 25): a small manifest, the keyword index, the catalogue in segments of
 * `CATALOGUE_SEGMENT_ROWS` and the vectors in segments of at most `VECTOR_SEGMENT_BYTES`; a
 * save rewrites only the segments whose hash changed. 5: the keyword index as a `KeywordImage`
 * (typed arrays and strings, postings decoded lazily) instead of MiniSearch's object per term.
 * 6: catalogue rows as tuples of values without their field names (`segmentRows`), 43% fewer
 * characters to read. A snapshot of an older version is not read: the open rebuilds from the tables (the truth)
 * and the next save replaces it.
 */
export const SNAPSHOT_VERSION = 6
/** The manifest; every row of a snapshot has a name starting with it. */
const SNAPSHOT_NAME = 'indexes'
const catalogueName = (i: number) => `indexes:catalogue:${i}`
const vectorName = (i: number) => `indexes:vectors:${i}`
/**
 * The segment hashes the manifest lists, in a row of their own beside it (written with it), so a
 * save learns what is stored without reading the manifest back. Older code's saves delete it.
 */
const HASHES_NAME = 'indexes:hashes'
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

/** The manifest row's data: what the segments must be for the snapshot to be whole. */
interface Manifest {
  /** The namespace+type numbering the vector rows were filed under. */
  groups: [string, number][]
  /** Hash of each catalogue segment, in order (the catalogue's rows in catalogue order). */
  catalogue: string[]
  /** The recall-counter mark the catalogue reflects; -1 when unknown (another tab flushed too). */
  counters: number
  /** The keyword index: every save changes it, so it rides in the manifest's row. */
  keyword: KeywordImage
  /** The vector index whole, when one segment would hold it; null for none or for segments. */
  vector: VectorIndexSnapshot | null
  /** The vector index's settings and row count when it is in segments. */
  vectorHead: VectorHead | null
  /** Hash of each vector segment, in order. */
  vectors: string[]
  /**
   * Stored vectors of a model other than the snapshot's, counted at the save: the open compares
   * the vectors table's plain count with the index's rows plus these instead of counting the
   * model's index range (about ten times the cost in Chromium, which checks every index entry
   * against its row). Absent from older snapshots (the open then counts the range). Not in the
   * digest: a wrong figure only makes the counts differ, which the open then checks by keys.
   */
  staleVectors?: number
  /** {@link digestOf} at save time: a truncated or damaged image no longer matches it. */
  digest: string
}

/** The hashes row's data: the manifest's lists, as {@link storedHashes} reads them. */
type SegmentHashes = Pick<Manifest, 'catalogue' | 'vectors'>

/** Everything that changes what the indexes contain, hashed. */
export function optionsHash(keywordOptions: Partial<KeywordIndexOptions>): string {
  const keyword = new KeywordIndex(keywordOptions)
  return hashText(`${keyword.fingerprint()}|${analyze(ANALYZER_PROBE).join(' ')}`)
}

export interface SnapshotStamp {
  seq: number
  optionsHash: string
  model: string | null
  count: number
  now: number
  /** The recall-counter mark the catalogue reflects (see {@link readCountersMark}). */
  counters: number
  /** Stored vectors of another model than `model`, counted for this save. */
  staleVectors: number
}

/**
 * Counts that any truncation of the manifest changes, with the keyword image's own hash (of its
 * every byte, checked again when it loads) and the segment hashes: enough to catch an image cut
 * short or stitched together from two saves.
 */
function digestOf(manifest: Omit<Manifest, 'digest' | 'staleVectors'>): string {
  const { keyword, vector } = manifest
  const parts = [
    keyword.documentCount,
    keyword.hash,
    keyword.postings?.length ?? -1,
    manifest.groups.length,
    vector ? vector.ids.length : -1,
    vector ? vector.codes.length : -1,
    vector ? vector.scales.length : -1,
    vector ? vector.signs.length : -1,
    vector ? vector.groups.length : -1,
    vector?.vectors ? vector.vectors.length : -1,
    manifest.vectorHead?.rows ?? -1,
    hashText([...manifest.catalogue, '|', ...manifest.vectors].join(' ')),
  ]
  return parts.join(':')
}

/**
 * Saves the indexes as segments in one transaction, writing only the segments whose hash
 * differs from the stored manifest's (a few catalogue segments after a few writes; the keyword
 * index always), and deleting rows no longer named. `vectorSegmentBytes` caps a vector segment
 * (tests make it small).
 */
export async function saveSnapshot(
  db: EngramDatabase,
  indexes: IndexSet,
  stamp: SnapshotStamp,
  vectorSegmentBytes = VECTOR_SEGMENT_BYTES,
): Promise<void> {
  try {
    await save(db, indexes, stamp, vectorSegmentBytes, false)
  } catch (error) {
    if (!(error instanceof UnsavedSegment)) throw error
    await save(db, indexes, stamp, vectorSegmentBytes, true)
  }
}

/**
 * A catalogue segment left out of a save as unchanged is not the one stored (the save that made
 * it failed, or another save came between): the save is made again with every segment.
 */
class UnsavedSegment extends Error {}

async function save(
  db: EngramDatabase,
  indexes: IndexSet,
  stamp: SnapshotStamp,
  vectorSegmentBytes: number,
  all: boolean,
): Promise<void> {
  const keyword = indexes.keyword.toImage()
  const catalogue = indexes.catalogueSegments(all)
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
  await db.transaction('rw', db.snapshots, async () => {
    const stored = await storedHashes(db)
    const rows: SnapshotRow[] = []
    for (const [i, segment] of catalogue.entries()) {
      const name = catalogueName(i)
      if (stored.get(name) === segment.hash) continue
      if (!segment.rows) throw new UnsavedSegment()
      rows.push(row(name, segment))
    }
    // The vector index is read through views here, after the read above: nothing waits between
    // the views and the copies made of them, and the save runs in the write queue, so no write
    // changes the index between the keyword image, the catalogue and the vectors.
    const vectors = vectorPart(indexes, vectorSegmentBytes, stored)
    for (const [i, segment] of vectors.segments) rows.push(row(vectorName(i), segment))
    const partial: Omit<Manifest, 'digest'> = {
      keyword,
      groups: indexes.groupEntries(),
      catalogue: catalogue.map((segment) => segment.hash),
      counters: stamp.counters,
      vector: vectors.whole,
      vectorHead: vectors.head,
      vectors: vectors.hashes,
    }
    const manifest: Manifest = {
      ...partial,
      staleVectors: stamp.staleVectors,
      digest: digestOf(partial),
    }
    const hashes: SegmentHashes = {
      catalogue: manifest.catalogue,
      vectors: manifest.vectors,
    }
    rows.push(row(SNAPSHOT_NAME, manifest), row(HASHES_NAME, hashes))
    const names = new Set([
      SNAPSHOT_NAME,
      HASHES_NAME,
      ...catalogue.map((_, i) => catalogueName(i)),
      ...vectors.hashes.map((_, i) => vectorName(i)),
    ])
    const existing = (await db.snapshots
      .where('name')
      .startsWith(SNAPSHOT_NAME)
      .primaryKeys()) as string[]
    await db.snapshots.bulkDelete(existing.filter((name) => !names.has(name)))
    await db.snapshots.bulkPut(rows)
  })
}

/**
 * The vector index as a save stores it: whole in the manifest when one segment would hold it,
 * else cut in segments of which only those not stored already are copied out. Hashing views of
 * the index's arrays leaves one copy of what changed instead of two of everything (a whole
 * `serialize` and then every segment), which at 72k rows was some 80 MB a save for the
 * collector.
 */
function vectorPart(
  indexes: IndexSet,
  maxBytes: number,
  stored: ReadonlyMap<string, string>,
): VectorPart {
  const part: VectorPart = { whole: null, head: null, hashes: [], segments: new Map() }
  const index = indexes.vectors
  if (!index || index.size === 0) return part
  const view = index.view()
  // One segment's worth rides in the manifest's row, as before segments: no second read.
  if (view.ids.length <= rowsPerVectorSegment(view, maxBytes)) {
    return { ...part, whole: index.serialize() }
  }
  const { head, hashes, segments } = vectorSegments(
    view,
    maxBytes,
    (position, hash) => stored.get(vectorName(position)) !== hash,
  )
  return { ...part, head, hashes, segments }
}

interface VectorPart {
  /** The index whole, for the manifest: null when it is in segments, or empty. */
  whole: VectorIndexSnapshot | null
  /** Its settings and row count when it is in segments. */
  head: VectorHead | null
  /** Every segment's hash, in order. */
  hashes: string[]
  /** The segments to write (not stored already), by position. */
  segments: ReadonlyMap<number, VectorSegment>
}

/**
 * Segment name → hash, as the stored snapshot lists them: from its small hashes row, or, for a
 * snapshot saved without one, from the manifest (whose row holds the keyword image and maybe
 * the whole vector index: tens of MB to read back for a few hashes). Inside the caller's
 * transaction.
 */
async function storedHashes(db: EngramDatabase): Promise<Map<string, string>> {
  const hashes = new Map<string, string>()
  const listed = await db.snapshots.get(HASHES_NAME)
  const row = listed?.version === SNAPSHOT_VERSION ? listed : await db.snapshots.get(SNAPSHOT_NAME)
  const lists = row?.data as SegmentHashes | undefined
  if (!row || row.version !== SNAPSHOT_VERSION || !lists) return hashes
  for (const [i, hash] of (lists.catalogue ?? []).entries()) hashes.set(catalogueName(i), hash)
  for (const [i, hash] of (lists.vectors ?? []).entries()) hashes.set(vectorName(i), hash)
  return hashes
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
 * The catalogue the manifest lists, parsed from its segments; undefined when one is missing,
 * from another save or damaged (the caller reads the rows instead).
 */
function catalogueOf(
  rows: readonly (SnapshotRow | undefined)[],
  manifest: Manifest,
  count: number,
): { memories: Memory[]; segments: CatalogueSegment[] } | undefined {
  const memories: Memory[] = []
  const segments: CatalogueSegment[] = []
  for (const [i, row] of rows.entries()) {
    const segment = row?.data as CatalogueSegment | undefined
    if (
      !row ||
      row.version !== SNAPSHOT_VERSION ||
      !segment ||
      segment.hash !== manifest.catalogue[i]
    ) {
      return undefined
    }
    const parsed = segmentRows(segment)
    if (!parsed) return undefined
    for (const memory of parsed) memories.push(memory)
    segments.push(segment)
  }
  return memories.length === count ? { memories, segments } : undefined
}

/** A snapshot that loaded: its indexes, its manifest row, what it counted. */
export interface LoadedSnapshot {
  indexes: IndexSet
  row: SnapshotRow
  /** Stored vectors of another model at the save; absent when an older save did not count them. */
  staleVectors?: number
}

/** Why a snapshot was not used, for stats and logs. */
export type SnapshotRejection = 'missing' | 'version' | 'options' | 'model' | 'corrupt'

/**
 * Loads the saved indexes if they were built with the same options and model; otherwise says
 * why not. A snapshot whose keyword image does not match its digest, whose vector segments do
 * not match the manifest, or that throws while loading, counts as corrupt and is deleted. A
 * catalogue segment that does not match only means the catalogue is read from the table. The
 * caller still checks the loaded indexes against the tables.
 */
export async function loadSnapshot(
  db: EngramDatabase,
  expected: { optionsHash: string; model: string | null },
  keywordOptions: Partial<KeywordIndexOptions>,
): Promise<LoadedSnapshot | { rejected: SnapshotRejection }> {
  const row = await db.snapshots.get(SNAPSHOT_NAME)
  if (!row) return { rejected: 'missing' }
  if (row.version !== SNAPSHOT_VERSION) return { rejected: 'version' }
  if (row.optionsHash !== expected.optionsHash) return { rejected: 'options' }
  const manifest = row.data as Manifest | undefined
  const hasVectors = manifest?.vector || manifest?.vectorHead
  if (row.model !== expected.model && hasVectors) return { rejected: 'model' }
  try {
    if (!manifest || !Array.isArray(manifest.catalogue) || !Array.isArray(manifest.groups)) {
      throw new Error('no manifest')
    }
    if (!manifest.keyword || manifest.digest !== digestOf(manifest)) {
      throw new Error('digest mismatch')
    }
    // Both reads go out before the keyword index loads, so IndexedDB fetches while it builds.
    const catalogueRead = handled(
      db.snapshots.bulkGet(manifest.catalogue.map((_, i) => catalogueName(i))),
    )
    const vectorRead = manifest.vectorHead
      ? handled(db.snapshots.bulkGet(manifest.vectors.map((_, i) => vectorName(i))))
      : undefined
    const keyword = new KeywordIndex(keywordOptions, manifest.keyword)
    if (row.count !== keyword.size) throw new Error('count mismatch')
    const vectors =
      manifest.vectorHead && vectorRead
        ? vectorsOf(await vectorRead, manifest, manifest.vectorHead)
        : manifest.vector
          ? VectorIndex.deserialize(manifest.vector)
          : null
    const indexes = new IndexSet(keyword, vectors, manifest.groups)
    const catalogue = catalogueOf(await catalogueRead, manifest, row.count)
    if (catalogue) {
      indexes.restoreCatalogue(catalogue.memories, manifest.counters, catalogue.segments)
    }
    const stale = manifest.staleVectors
    return {
      indexes,
      row,
      ...(Number.isInteger(stale) && stale! >= 0 ? { staleVectors: stale } : {}),
    }
  } catch {
    await deleteSnapshot(db)
    return { rejected: 'corrupt' }
  }
}

/**
 * A read started ahead of its use: a rejection while the caller is still busy (the keyword image
 * refused) counts as handled, and the caller's own `await` still sees it.
 */
function handled<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {})
  return read
}

/** The vector index from the segments the manifest lists; throws when one does not match. */
function vectorsOf(
  rows: readonly (SnapshotRow | undefined)[],
  manifest: Manifest,
  head: VectorHead,
): VectorIndex {
  const segments = rows.map((row, i) => {
    const segment = row?.data as VectorSegment | undefined
    if (!segment || segment.hash !== manifest.vectors[i]) throw new Error('vector segment mismatch')
    return segment
  })
  return VectorIndex.deserialize(vectorParts(head, segments))
}

/** Deletes every row of the snapshot, of any version (the counter mark stays). */
export async function deleteSnapshot(db: EngramDatabase): Promise<void> {
  await db.snapshots.where('name').startsWith(SNAPSHOT_NAME).delete()
}

import type { AsPlainObject } from 'minisearch'
import { analyze } from '../core/tokenize.ts'
import { VectorIndex, type VectorIndexSnapshot } from '../core/vector/index.ts'
import type { EngramDatabase, SnapshotRow } from '../storage/index.ts'
import { IndexSet } from './index-set.ts'
import { KeywordIndex, type KeywordIndexOptions } from './keyword-index.ts'

/** Bump when the shape of `SnapshotData` changes. 2: namespace+type groups and a digest. */
export const SNAPSHOT_VERSION = 2
const SNAPSHOT_NAME = 'indexes'

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
  const row: SnapshotRow = {
    name: SNAPSHOT_NAME,
    version: SNAPSHOT_VERSION,
    seq: stamp.seq,
    optionsHash: stamp.optionsHash,
    model: stamp.model,
    count: stamp.count,
    createdAt: stamp.now,
    data,
  }
  await db.snapshots.put(row)
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
  const row = await db.snapshots.get(SNAPSHOT_NAME)
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
    return { indexes: new IndexSet(keyword, vectors, data.groups), row }
  } catch {
    await db.snapshots.delete(SNAPSHOT_NAME)
    return { rejected: 'corrupt' }
  }
}

export async function deleteSnapshot(db: EngramDatabase): Promise<void> {
  await db.snapshots.delete(SNAPSHOT_NAME)
}

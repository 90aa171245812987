import type { AsPlainObject } from 'minisearch'
import { analyze } from '../core/tokenize.ts'
import { VectorIndex, type VectorIndexSnapshot } from '../core/vector-index.ts'
import type { EngramDatabase, SnapshotRow } from '../storage/index.ts'
import { IndexSet } from './index-set.ts'
import { KeywordIndex, type KeywordIndexOptions } from './keyword-index.ts'

/** Bump when the shape of `SnapshotData` changes. */
export const SNAPSHOT_VERSION = 1
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

export async function saveSnapshot(
  db: EngramDatabase,
  indexes: IndexSet,
  stamp: SnapshotStamp,
): Promise<void> {
  const data: SnapshotData = {
    keyword: indexes.keyword.toJS(),
    vector: indexes.vectors && indexes.vectors.size > 0 ? indexes.vectors.serialize() : null,
  }
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
 * why not. A snapshot that throws while loading counts as corrupt and is deleted.
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
    const keyword = new KeywordIndex(keywordOptions, data.keyword)
    const vectors = data.vector ? VectorIndex.deserialize(data.vector) : null
    return { indexes: new IndexSet(keyword, vectors), row }
  } catch {
    await db.snapshots.delete(SNAPSHOT_NAME)
    return { rejected: 'corrupt' }
  }
}

export async function deleteSnapshot(db: EngramDatabase): Promise<void> {
  await db.snapshots.delete(SNAPSHOT_NAME)
}

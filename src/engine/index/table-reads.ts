import type { Memory } from '../../core/types.ts'
import type { ChangeRow, EngramDatabase, VectorRow } from '../../storage/index.ts'
import { readCountersMark } from './snapshot.ts'

/** The changes after a seq, with the rows they name as they stand now. */
export interface ChangesAfter {
  changes: ChangeRow[]
  /** The oldest change in the log; read only when the first change read skips past `after + 1`. */
  oldest: ChangeRow | undefined
  memories: Map<string, Memory>
  vectors: Map<string, VectorRow>
}

/**
 * The change log after seq `after` and the rows and vectors its puts name, in one read
 * transaction; undefined when the log holds nothing after `after`.
 */
export async function readChangesAfter(
  db: EngramDatabase,
  after: number,
): Promise<ChangesAfter | undefined> {
  // Every write starts with a catch-up. Most find nothing, and asking only the change log
  // keeps them from queueing behind a read-write transaction on the memories (the recall
  // counters): the rows are read, with the changes again, only when there is something.
  if (!(await db.changes.where('seq').above(after).first())) return undefined
  return db.transaction('r', db.changes, db.memories, db.vectors, async () => {
    const changes = await db.changes.where('seq').above(after).toArray()
    const gap = changes.length > 0 && changes[0]!.seq! > after + 1
    const oldest = gap ? await db.changes.orderBy('seq').first() : undefined
    const ids = [...new Set(changes.filter((c) => c.op === 'put').map((c) => c.id))]
    const [memories, vectors] = await Promise.all([
      db.memories.bulkGet(ids),
      db.vectors.bulkGet(ids),
    ])
    return { changes, oldest, memories: byId(memories), vectors: byId(vectors) }
  })
}

/**
 * Everything a rebuild reads, in one read transaction: the rows, and the seq and counter mark
 * they correspond to; the vectors only of `model` (none without one).
 */
export async function readTables(
  db: EngramDatabase,
  model: string | null,
): Promise<{ lastSeq: number; memories: Memory[]; vectors: VectorRow[]; counters: number }> {
  const [last, memories, vectors, counters] = await db.transaction(
    'r',
    [db.changes, db.memories, db.vectors, db.snapshots],
    () =>
      Promise.all([
        db.changes.orderBy('seq').last(),
        db.memories.toArray(),
        model ? db.vectors.where('model').equals(model).toArray() : Promise.resolve([]),
        readCountersMark(db),
      ]),
  )
  return { lastSeq: last?.seq ?? 0, memories, vectors, counters }
}

function byId<T extends { id: string }>(rows: readonly (T | undefined)[]): Map<string, T> {
  const map = new Map<string, T>()
  for (const row of rows) if (row !== undefined) map.set(row.id, row)
  return map
}

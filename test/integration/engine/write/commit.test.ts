import { afterEach, describe, expect, it } from 'vitest'
import type { Memory } from '../../../../src/core/types.ts'
import { commitBatch, STALE } from '../../../../src/engine/write/commit.ts'
import type { BatchPlan } from '../../../../src/engine/write/plan.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'
import { freshIdb } from '../../../helpers/engine.ts'
import { row } from '../../../unit/engine/fixtures.ts'

const open: EngramDatabase[] = []
afterEach(() => {
  for (const db of open.splice(0)) db.close()
})

async function database(rows: Memory[]): Promise<EngramDatabase> {
  const db = new EngramDatabase('commit', freshIdb())
  open.push(db)
  await db.open()
  await db.memories.bulkAdd(rows)
  return db
}

const stored = (id: string, text: string): Memory =>
  row(id, text, { createdAt: 1, updatedAt: 1, confirmedAt: 1 })

function context(db: EngramDatabase) {
  return {
    db,
    model: 'engram/ngram-hash',
    now: 5,
    transact: <T>(body: () => Promise<T>) =>
      db.transaction('rw', db.memories, db.vectors, db.changes, body),
  }
}

describe('commitBatch', () => {
  it('writes new rows, their vectors and the confirmations in one go, a change entry each', async () => {
    const db = await database([stored('s1', 'stored fact')])
    const fresh = stored('n1', 'new fact')
    const plan: BatchPlan = {
      results: [],
      fresh: [{ memory: fresh, vector: new Float32Array([1, 0]) }],
      confirmations: new Map([
        ['s1', { count: 2, namespace: 'default', type: 'fact', key: 'stored fact' }],
      ]),
    }
    const committed = await commitBatch(plan, context(db))
    expect(committed).not.toBe(STALE)
    if (committed === STALE) return
    expect(committed.seqs).toHaveLength(2)
    expect(committed.confirmed.map((m) => [m.id, m.confirmations, m.confirmedAt])).toEqual([
      ['s1', 3, 5],
    ])
    expect((await db.memories.get('s1'))?.confirmations).toBe(3)
    expect((await db.vectors.get('n1'))?.model).toBe('engram/ngram-hash')
    expect((await db.changes.toArray()).map((c) => [c.op, c.id])).toEqual([
      ['put', 'n1'],
      ['put', 's1'],
    ])
  })

  it('writes nothing and says stale when a memory it confirms changed or went away', async () => {
    const db = await database([stored('s1', 'stored fact changed elsewhere')])
    for (const id of ['s1', 'gone']) {
      const plan: BatchPlan = {
        results: [],
        fresh: [{ memory: stored('n1', 'new fact') }],
        confirmations: new Map([
          [id, { count: 1, namespace: 'default', type: 'fact', key: 'stored fact' }],
        ]),
      }
      expect(await commitBatch(plan, context(db))).toBe(STALE)
    }
    expect(await db.memories.count()).toBe(1)
    expect(await db.changes.count()).toBe(0)
  })
})

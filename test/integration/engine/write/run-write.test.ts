import { afterEach, describe, expect, it } from 'vitest'
import { StorageError } from '../../../../src/core/errors.ts'
import { WRITE_ATTEMPTS } from '../../../../src/core/options.ts'
import type { MemoryEvent } from '../../../../src/core/types.ts'
import { EngineContext } from '../../../../src/engine/engine-context.ts'
import { answered, inWriteTurn, runWrite, STALE } from '../../../../src/engine/write/index.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'
import { freshIdb, openTestEngine } from '../../../helpers/engine.ts'
import { row } from '../../../unit/engine/fixtures.ts'

const open: { ctx: EngineContext; db: EngramDatabase }[] = []
afterEach(async () => {
  for (const { ctx, db } of open.splice(0)) {
    await ctx.settled()
    db.close()
  }
})

let counter = 0

async function context() {
  const name = `run-write-${++counter}`
  const idb = freshIdb()
  const events: MemoryEvent[] = []
  const db = new EngramDatabase(name, idb)
  const ctx = new EngineContext({ name, ...idb, onEvent: (e) => events.push(e) }, db)
  open.push({ ctx, db })
  await db.open()
  let backfills = 0
  ctx.useBackfill(() => backfills++)
  return { ctx, db, events, backfills: () => backfills }
}

describe('runWrite', () => {
  it('commits one transaction, then updates the indexes, records the seqs and starts the backfill', async () => {
    const { ctx, db, events, backfills } = await context()
    const memory = row('m1', 'a stored fact')
    const result = await runWrite(ctx, {
      prepare: async () => memory,
      commit: async (m) => {
        await db.memories.add(m)
        const seq = (await db.changes.add({ op: 'put', id: m.id, at: 1 })) as number
        // Nothing reaches the indexes before the commit.
        expect(ctx.indexes.catalogue.has(m.id)).toBe(false)
        return { result: 'stored', seqs: [seq], stored: [{ memory: m }], unembedded: true }
      },
    })
    expect(result).toBe('stored')
    expect(ctx.indexes.catalogue.get('m1')?.text).toBe('a stored fact')
    expect(ctx.upkeep.lastSeq).toBe(1)
    expect(events).toContainEqual({ type: 'change', seq: 1 })
    expect(backfills()).toBe(1)
  })

  it('leaves the tables and the indexes as they were when the commit fails part way', async () => {
    const { ctx, db } = await context()
    const failing = runWrite(ctx, {
      commit: async () => {
        await db.memories.add(row('m1', 'half written'))
        throw new Error('injected after the first write')
      },
    })
    await expect(failing).rejects.toBeInstanceOf(StorageError)
    expect(await db.memories.count()).toBe(0)
    expect(ctx.indexes.catalogue.size).toBe(0)
  })

  it('catches up and prepares again after a stale try, and gives up after WRITE_ATTEMPTS', async () => {
    const { ctx } = await context()
    const tries: number[] = []
    const once = await runWrite(ctx, {
      prepare: async (attempt) => attempt,
      commit: async (attempt) => {
        tries.push(attempt)
        return attempt < 2 ? STALE : { result: `try ${attempt}` }
      },
    })
    expect(once).toBe('try 2')
    expect(tries).toEqual([1, 2])
    let commits = 0
    const never = runWrite(ctx, {
      prepare: async () => 'page p1',
      commit: async () => {
        commits++
        return STALE
      },
      changing: (what) => what,
    })
    await expect(never).rejects.toThrow(
      `page p1 kept changing in another tab (${WRITE_ATTEMPTS} tries)`,
    )
    expect(commits).toBe(WRITE_ATTEMPTS)
  })

  it('counts a unique-key failure as a stale try only when told to', async () => {
    const { ctx, db } = await context()
    await db.memories.add(row('m1', 'held'))
    let tries = 0
    const raced = await runWrite(ctx, {
      commit: async () => {
        tries++
        if (tries === 1) await db.memories.add(row('m1', 'the same id'))
        return { result: tries }
      },
      racesAreStale: true,
    })
    expect(raced).toBe(2)
    const fault = runWrite(ctx, {
      commit: async () => {
        await db.memories.add(row('m1', 'the same id'))
        return { result: 'never' }
      },
    })
    await expect(fault).rejects.toBeInstanceOf(StorageError)
  })

  it('answers from prepare without a transaction', async () => {
    const { ctx } = await context()
    let committed = false
    const result = await runWrite(ctx, {
      prepare: async () => answered('unchanged'),
      commit: async () => {
        committed = true
        return { result: 'written' }
      },
    })
    expect(result).toBe('unchanged')
    expect(committed).toBe(false)
  })

  it('runs writes one at a time, in the order they were asked for', async () => {
    const { ctx } = await context()
    const order: string[] = []
    const write = (name: string, ms: number) =>
      runWrite(ctx, {
        prepare: async () => {
          order.push(`${name} start`)
          await new Promise((resolve) => setTimeout(resolve, ms))
        },
        commit: async () => {
          order.push(`${name} commit`)
          return { result: name }
        },
      })
    await Promise.all([write('a', 20), write('b', 0)])
    expect(order).toEqual(['a start', 'a commit', 'b start', 'b commit'])
  })
})

describe('runWrite for a write no index follows but the vectors', () => {
  it('moves only the vector index for vectors stored beside unchanged rows', async () => {
    const { ctx, db } = await context()
    const memory = row('m1', 'embedded later')
    await runWrite(ctx, {
      commit: async () => {
        await db.memories.add(memory)
        return { result: undefined, stored: [{ memory }] }
      },
    })
    ctx.indexes.ensureVectors(2)
    const vector = new Float32Array([1, 0])
    await runWrite(ctx, {
      commit: async () => {
        await db.vectors.put({ id: 'm1', model: 'test', dims: 2, vector })
        return { result: undefined, vectors: [{ id: 'm1', vector }] }
      },
    })
    expect(ctx.indexes.vectors?.has('m1')).toBe(true)
    // The catalogue is columnar (issue 25): it hands back a fresh row equal to the one stored.
    expect(ctx.indexes.catalogue.get('m1')).toEqual(memory)
  })
})

describe('inWriteTurn', () => {
  it('runs after the writes queued before it, under the lock, with no transaction', async () => {
    const { ctx, db } = await context()
    const order: string[] = []
    const write = runWrite(ctx, {
      prepare: async () => {
        await new Promise((resolve) => setTimeout(resolve, 10))
      },
      commit: async () => {
        await db.memories.add(row('m1', 'written first'))
        order.push('write')
        return { result: undefined, stored: [{ memory: row('m1', 'written first') }] }
      },
    })
    const turn = inWriteTurn(ctx, async () => {
      order.push('turn')
      return ctx.indexes.catalogue.has('m1')
    })
    await write
    expect(await turn).toBe(true)
    expect(order).toEqual(['write', 'turn'])
  })
})

describe('the engine id factory', () => {
  it('gives memories, pages and their chunks the ids of the injected newId', async () => {
    let n = 0
    const engine = await openTestEngine({ newId: () => `id-${String(++n).padStart(3, '0')}` })
    try {
      const fact = await engine.remember('The owner keeps bees on the roof')
      expect(fact.id).toBe('id-001')
      const page = await engine.pages.remember({
        title: 'Bees',
        text: 'Hives need water in summer.',
      })
      expect(page.pageId).toBe('id-002')
      // The page's id, then one per chunk, all from the one factory.
      const next = await engine.remember('The bees swarmed in May')
      expect(next.id).toBe(`id-${String(3 + page.chunks).padStart(3, '0')}`)
    } finally {
      await engine.close()
    }
  })
})

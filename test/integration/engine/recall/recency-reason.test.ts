/**
 * Issue 10: the recency window's explanation said "(indexes rebuilding)" even when the indexes
 * had failed to restore at open. It now names the true reason, with the failure's code.
 */
import { describe, expect, it } from 'vitest'
import { INDEX_RETRY_MS } from '../../../../src/core/options.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'
import { closingEngines, freshIdb, manualClock } from '../../../helpers/engine.ts'

const engine = closingEngines()
let counter = 0

/**
 * Opens a memory whose index restore fails: its snapshot is damaged and its one row carries a
 * null `aliases`, which the keyword index throws on. `heal` puts the row right again.
 */
async function memoryWithFailedIndexes() {
  const where = { name: `recency-reason-${++counter}`, ...freshIdb() }
  const clock = manualClock()
  const before = await engine({ ...where, clock: clock.read })
  await before.remember('The spare key is under the blue pot')
  await before.close()
  const db = new EngramDatabase(where.name, where)
  const [stored] = await db.memories.toArray()
  await db.memories.put({ ...stored!, aliases: null } as never)
  await db.snapshots.toCollection().modify({ data: { keyword: 'damaged' } })
  db.close()
  const heal = async () => {
    const fix = new EngramDatabase(where.name, where)
    await fix.memories.put(stored!)
    fix.close()
  }
  return { memory: await engine({ ...where, clock: clock.read }), clock, heal }
}

describe('the recency window after a failed open', () => {
  it('explains its hits by the failure and its code, not by a rebuild', async () => {
    const { memory } = await memoryWithFailedIndexes()
    const code = (await memory.inspect.stats()).indexes?.error.code
    expect(code).toBe('STORAGE')
    const result = await memory.recall('spare key', { explain: true })
    expect(result.degraded).toBe('recency')
    expect(result.hits.map((h) => h.explanation)).toEqual([
      `recent: matched [spare, key] among the newest 500 (indexes failed to restore: ${code}) -> #1`,
    ])
  })

  it('no longer answers from the recency window once a retried rebuild succeeds', async () => {
    const { memory, clock, heal } = await memoryWithFailedIndexes()
    await heal()
    clock.tick(INDEX_RETRY_MS)
    await memory.recall('spare key')
    await memory.catchUp()
    const result = await memory.recall('spare key', { explain: true })
    expect(result.degraded).toBeUndefined()
    expect(result.hits[0]?.explanation).not.toMatch(/indexes (failed|rebuilding)/)
  })
})

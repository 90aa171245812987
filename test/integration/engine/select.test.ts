import { afterEach, describe, expect, it, vi } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors.ts'
import { DEFAULT_SELECT } from '../../../src/core/options.ts'
import type { RecallHit, SelectHook } from '../../../src/core/types.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { openTestEngine } from '../../helpers/engine.ts'

const open: MemoryEngine[] = []

afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((e) => e.close()))
})

const NOTES = [
  'The deploy script is scripts/ship.sh',
  'Deploys need the smoke tests to pass first',
  'Deploy freezes start on the 20th of December',
  'The staging deploy uses the blue-green switch',
  'Rollbacks after a bad deploy go through ship.sh --rollback',
  'The owner prefers metric units',
]

async function seeded(): Promise<{ engine: MemoryEngine; fused: RecallHit[] }> {
  const engine = await openTestEngine()
  open.push(engine)
  await engine.rememberMany(NOTES.map((text) => ({ text })))
  const { hits } = await engine.recall('deploy', { k: 5, log: false })
  return { engine, fused: hits }
}

describe('recall select hook', () => {
  it('keeps the ids the hook names, in its order, renumbered, and says it applied', async () => {
    const { engine, fused } = await seeded()
    const pick = [fused[2]!.id, fused[0]!.id]
    const result = await engine.recall('deploy', { k: 5, select: () => pick })
    expect(result.selection).toBe('applied')
    expect(result.hits.map((h) => h.id)).toEqual(pick)
    expect(result.hits.map((h) => h.rank)).toEqual([1, 2])
    expect(result.hits[0]!.explanation).toMatch(/-> #3; selected -> #1$/)
    expect(result.hits[0]!.fused).toBe(fused[2]!.fused)
  })

  it('shows the hook the query and the top candidates, best first', async () => {
    const { engine } = await seeded()
    const select = vi.fn<SelectHook>((_query, hits) => [hits[0]!.id])
    await engine.recall('deploy', { k: 2, select, selectOptions: { candidates: 4 } })
    expect(select).toHaveBeenCalledTimes(1)
    const [query, hits] = select.mock.calls[0]!
    expect(query).toBe('deploy')
    // More candidates than k: the hook sees 4 although only 2 are returned.
    expect(hits.map((h) => h.rank)).toEqual([1, 2, 3, 4])
  })

  it('keeps at most `keep` ids and at most k', async () => {
    const { engine, fused } = await seeded()
    const all = () => fused.map((h) => h.id)
    const kept = await engine.recall('deploy', {
      k: 5,
      select: all,
      selectOptions: { keep: 2 },
    })
    expect(kept.hits).toHaveLength(2)
    const capped = await engine.recall('deploy', { k: 1, select: all })
    expect(capped.hits.map((h) => h.id)).toEqual([fused[0]!.id])
  })

  it('ignores ids it never showed and repeated ids', async () => {
    const { engine, fused } = await seeded()
    const result = await engine.recall('deploy', {
      k: 5,
      select: () => ['nope', fused[1]!.id, fused[1]!.id, 'also-nope', fused[3]!.id],
    })
    expect(result.selection).toBe('applied')
    expect(result.hits.map((h) => h.id)).toEqual([fused[1]!.id, fused[3]!.id])
  })

  it('lets the fused ranking stand and says failed when the hook throws or rejects', async () => {
    const { engine, fused } = await seeded()
    const ids = fused.map((h) => h.id)
    const thrown = await engine.recall('deploy', {
      k: 5,
      select: () => {
        throw new Error('judge down')
      },
    })
    expect(thrown.selection).toBe('failed')
    expect(thrown.hits.map((h) => h.id)).toEqual(ids)
    const rejected = await engine.recall('deploy', {
      k: 5,
      select: async () => Promise.reject(new Error('judge down')),
    })
    expect(rejected.selection).toBe('failed')
    expect(rejected.hits.map((h) => h.id)).toEqual(ids)
  })

  it('says failed when the hook answers something other than a list of ids', async () => {
    const { engine, fused } = await seeded()
    const bad = (() => ({ ids: [fused[0]!.id] })) as unknown as SelectHook
    const result = await engine.recall('deploy', { k: 5, select: bad })
    expect(result.selection).toBe('failed')
    expect(result.hits.map((h) => h.id)).toEqual(fused.map((h) => h.id))
  })

  it('says timeout and keeps the fused ranking when the hook is too slow', async () => {
    const { engine, fused } = await seeded()
    // The hook never answers: without the timeout this recall would hang past the test's limit.
    const result = await engine.recall('deploy', {
      k: 5,
      select: () => new Promise<string[]>(() => {}),
      selectOptions: { timeoutMs: 30 },
    })
    expect(result.selection).toBe('timeout')
    expect(result.hits.map((h) => h.id)).toEqual(fused.map((h) => h.id))
  })

  it('says empty when the hook keeps nothing usable', async () => {
    const { engine, fused } = await seeded()
    const none = await engine.recall('deploy', { k: 5, select: () => [] })
    expect(none.selection).toBe('empty')
    expect(none.hits.map((h) => h.id)).toEqual(fused.map((h) => h.id))
    const unknown = await engine.recall('deploy', { k: 5, select: () => ['missing'] })
    expect(unknown.selection).toBe('empty')
  })

  it('does not call the hook when nothing was recalled', async () => {
    const { engine } = await seeded()
    const select = vi.fn<SelectHook>(() => [])
    const result = await engine.recall('zebra', { mode: 'keyword', select })
    expect(result.hits).toEqual([])
    expect(result.selection).toBe('empty')
    expect(select).not.toHaveBeenCalled()
  })

  it('leaves selection out when no hook is given', async () => {
    const { engine } = await seeded()
    const result = await engine.recall('deploy')
    expect(result).not.toHaveProperty('selection')
  })

  it('skips explanations of selected hits with explain: false', async () => {
    const { engine, fused } = await seeded()
    const result = await engine.recall('deploy', {
      explain: false,
      select: () => [fused[1]!.id],
    })
    expect(result.hits[0]!.explanation).toBe('')
  })

  it('logs the selected hits without the hook', async () => {
    const { engine, fused } = await seeded()
    await engine.recall('deploy', { k: 5, select: () => [fused[4]!.id] })
    await vi.waitFor(async () => expect(await engine.inspect.recallLog()).toHaveLength(1))
    const [entry] = await engine.inspect.recallLog()
    expect(entry!.hits.map((h) => h.id)).toEqual([fused[4]!.id])
    expect(entry!.options).not.toHaveProperty('select')
  })

  it('rejects a hook that is not a function and out-of-range limits', async () => {
    const { engine } = await seeded()
    const notAFunction = { select: 'judge' as unknown as SelectHook }
    await expect(engine.recall('deploy', notAFunction)).rejects.toThrow(InvalidInputError)
    for (const selectOptions of [{ candidates: 0 }, { keep: 1.5 }, { timeoutMs: -1 }]) {
      await expect(engine.recall('deploy', { selectOptions })).rejects.toThrow(
        /selectOptions\.(candidates|keep|timeoutMs)/,
      )
    }
  })

  it('defaults to 12 candidates, 3 kept, 5 s', () => {
    expect(DEFAULT_SELECT).toEqual({ candidates: 12, keep: 3, timeoutMs: 5000 })
  })
})

import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../../../src/core/options.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { closingEngines, manualClock } from '../../helpers/engine.ts'
import { eventually } from '../../helpers/eventually.ts'

const engine = closingEngines()

/** Waits for the batched recall counters to land (they are written off the answer path). */
function counted(e: MemoryEngine, id: string, n: number): Promise<void> {
  return eventually(
    async () => (await e.get(id))?.recallCount === n,
    `recallCount of ${id} reached ${n}`,
  )
}

describe('tiers and expiry', () => {
  it('gives a write its type’s tier and a numeric confidence from its source', async () => {
    const e = await engine()
    const log = await e.remember('Deployed build 812 to staging', { type: 'log' })
    const skill = await e.remember('Run npm ci before the build', { type: 'skill' })
    const said = await e.remember('I live in Porto', { source: 'user' })
    const pinned = await e.remember('Scratch note', { tier: 'working', confidence: 'high' })
    expect((await e.get(log.id))?.tier).toBe('episodic')
    expect((await e.get(skill.id))?.tier).toBe('procedural')
    expect(await e.get(said.id)).toMatchObject({ tier: 'semantic', confidence: 0.8 })
    expect(await e.get(pinned.id)).toMatchObject({ tier: 'working', confidence: 0.9 })
  })

  it('rejects a tier or a confidence it does not know', async () => {
    const e = await engine()
    await expect(e.remember('x', { tier: 'forever' as never })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      field: 'tier',
    })
    await expect(e.remember('x', { confidence: 1.5 })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      field: 'confidence',
    })
  })

  it('leaves a memory out of recall once its TTL has run, but still lists it', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const note = await e.remember('The parking spot is B12', { tier: 'working' })
    expect((await e.recall('parking spot', { log: false })).hits.map((h) => h.id)).toEqual([
      note.id,
    ])
    clock.tick(2 * DAY_MS)
    expect((await e.recall('parking spot', { log: false })).hits).toEqual([])
    const kept = await e.recall('parking spot', { log: false, includeExpired: true })
    expect(kept.hits.map((h) => h.id)).toEqual([note.id])
    expect((await e.list()).items.map((m) => m.id)).toEqual([note.id])
    expect((await e.list({ expired: true })).items.map((m) => m.id)).toEqual([note.id])
    expect((await e.list({ expired: false })).items).toEqual([])
    expect(await e.transfer.export()).toContain('The parking spot is B12')
  })

  it('keeps a memory in use alive: a recall into a result restarts its TTL', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const note = await e.remember('The parking spot is B12', { tier: 'working' })
    clock.tick(20 * 3_600_000)
    await e.recall('parking spot', { log: false })
    await counted(e, note.id, 1)
    clock.tick(20 * 3_600_000)
    const { hits } = await e.recall('parking spot', { log: false })
    expect(hits.map((h) => h.id)).toEqual([note.id])
  })

  it('keeps a memory confirmed by a duplicate write alive', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const note = await e.remember('The parking spot is B12', { tier: 'working' })
    clock.tick(20 * 3_600_000)
    expect(await e.remember('the parking spot is b12', { tier: 'working' })).toMatchObject({
      id: note.id,
      status: 'duplicate',
    })
    clock.tick(20 * 3_600_000)
    expect((await e.recall('parking spot', { log: false })).hits).toHaveLength(1)
  })

  it('filters a listing by tier', async () => {
    const e = await engine()
    await e.remember('Deployed build 812', { type: 'log' })
    const fact = await e.remember('The owner prefers metric units')
    expect((await e.list({ tier: 'semantic' })).items.map((m) => m.id)).toEqual([fact.id])
    await expect(e.list({ tier: 'eternal' as never })).rejects.toMatchObject({ field: 'tier' })
  })

  it('moves a memory to another tier by update', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const note = await e.remember('The parking spot is B12', { tier: 'working' })
    await e.update(note.id, { tier: 'semantic', confidence: 0.75 })
    clock.tick(2 * DAY_MS)
    expect(await e.get(note.id)).toMatchObject({ tier: 'semantic', confidence: 0.75 })
    expect((await e.recall('parking spot', { log: false })).hits).toHaveLength(1)
  })
})

describe('confidence at recall', () => {
  it('decays with disuse, ranks the fresher of two equal memories first and explains it', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const old = await e.remember('the blue notebook is in the desk', {
      type: 'log',
      confidence: 'high',
    })
    clock.tick(15 * DAY_MS)
    const fresh = await e.remember('the blue notebook is in the car', {
      type: 'log',
      confidence: 'high',
    })
    const { hits } = await e.recall('blue notebook', { mode: 'keyword', log: false })
    expect(hits.map((h) => h.id)).toEqual([fresh.id, old.id])
    expect(hits[0]!.confidence).toBeCloseTo(0.9, 9)
    expect(hits[1]!.confidence).toBeCloseTo(0.9 * Math.SQRT1_2, 9)
    expect(hits[1]!.explanation).toContain(
      'confidence 0.64 (0.90 at write; episodic, 15 of 30 days) x1.02 -> #2',
    )
  })

  it('is reinforced by recalls, which are counted after the answer', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const a = await e.remember('the blue notebook is in the desk', { type: 'log' })
    for (let i = 1; i <= 3; i++) {
      await e.recall('blue notebook', { log: false })
      await counted(e, a.id, i)
    }
    clock.tick(15 * DAY_MS)
    const { hits } = await e.recall('blue notebook', { log: false })
    expect(hits[0]!.confidence).toBeGreaterThan(0.6 * Math.SQRT1_2)
    expect(hits[0]!.explanation).toContain('episodic, 15 of 30 days; recalled 3 times')
  })

  it('is neutral for fresh memories at the default confidence', async () => {
    const e = await engine()
    await e.remember('the blue notebook is in the desk')
    const { hits } = await e.recall('blue notebook', { log: false })
    expect(hits[0]!.boosts.map((b) => b.name)).toEqual(['recency'])
    expect(hits[0]!.confidence).toBeCloseTo(0.6, 6)
  })
})

describe('lifecycle options', () => {
  it('reads TTLs from options and rejects a zero TTL', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read, lifecycle: { ttlDays: { working: 10 } } })
    await e.remember('The parking spot is B12', { tier: 'working' })
    clock.tick(5 * DAY_MS)
    expect((await e.recall('parking spot', { log: false })).hits).toHaveLength(1)
    await expect(engine({ lifecycle: { ttlDays: { working: 0 } } })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      field: 'lifecycle.ttlDays.working',
    })
  })
})

describe('tokenBudget', () => {
  it('returns as many hits as fit, a long one by its summary', async () => {
    const e = await engine()
    const long = await e.remember(`The deploy checklist: ${'step and check again, '.repeat(30)}`, {
      summary: 'The deploy checklist has thirty steps',
    })
    const short = await e.remember('The deploy window is Friday')
    const all = await e.recall('deploy', { log: false })
    expect(all.hits.map((h) => h.resolution)).toEqual([undefined, undefined])
    const budgeted = await e.recall('deploy', { log: false, tokenBudget: 20 })
    const byId = new Map(budgeted.hits.map((h) => [h.id, h]))
    expect(byId.get(short.id)?.resolution).toBe('full')
    expect(byId.get(long.id)).toMatchObject({
      resolution: 'summary',
      text: 'The deploy checklist has thirty steps',
    })
    expect(byId.get(long.id)?.memory.text).toMatch(/^The deploy checklist: step/)
    await expect(e.recall('deploy', { tokenBudget: 0 })).rejects.toMatchObject({
      field: 'tokenBudget',
    })
  })

  it('leaves out a hit that fits neither way and still packs the smaller ones after it', async () => {
    const e = await engine()
    const long = await e.remember(`The deploy checklist: ${'step and check again, '.repeat(30)}`)
    const window = await e.remember('The deploy window is Friday')
    const keys = await e.remember('Deploy keys live in the vault')
    // The hook puts the long one first, so packing meets it before the two that fit.
    const select = () => [long.id, window.id, keys.id]
    const budgeted = await e.recall('deploy', { log: false, tokenBudget: 20, select })
    expect(budgeted.hits.map((h) => h.id)).toEqual([window.id, keys.id])
    expect(budgeted.hits.map((h) => h.resolution)).toEqual(['full', 'full'])
  })
})

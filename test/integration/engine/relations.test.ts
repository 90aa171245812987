import { describe, expect, it } from 'vitest'
import { closingEngines } from '../../helpers/engine.ts'

const engine = closingEngines()

describe('relations', () => {
  it('stores, lists and removes an edge, and checks both ends and the kind', async () => {
    const e = await engine({ clock: () => 1000 })
    const a = await e.remember('The office is on floor 3')
    const b = await e.remember('The office is on floor 5')
    expect(await e.relations.add(b.id, a.id, 'contradicts')).toEqual({
      from: b.id,
      to: a.id,
      kind: 'contradicts',
      createdAt: 1000,
    })
    expect(await e.relations.of(a.id)).toHaveLength(1)
    await expect(e.relations.add(a.id, 'nope', 'related_to')).rejects.toMatchObject({
      name: 'MemoryNotFoundError',
    })
    await expect(e.relations.add(a.id, a.id, 'related_to')).rejects.toMatchObject({
      code: 'BAD_OPTION',
    })
    await expect(e.relations.add(a.id, b.id, 'likes' as never)).rejects.toMatchObject({
      field: 'kind',
    })
    expect(await e.relations.remove(b.id, a.id, 'contradicts')).toBe(true)
    expect(await e.relations.remove(b.id, a.id, 'contradicts')).toBe(false)
    expect(await e.relations.of(a.id)).toEqual([])
  })

  it('removes an edge with either end', async () => {
    const e = await engine()
    const a = await e.remember('The office is on floor 3')
    const b = await e.remember('The office is on floor 5')
    const c = await e.remember('The lift is out of order')
    await e.relations.add(b.id, a.id, 'contradicts')
    await e.relations.add(c.id, b.id, 'related_to')
    await e.forget(b.id)
    expect(await e.relations.of(a.id)).toEqual([])
    expect(await e.relations.of(c.id)).toEqual([])
    expect(await e.inspect.verify()).toMatchObject({ ok: true, orphanRelations: [] })
  })

  it('hides a superseded memory unless asked, and supersedes on remember', async () => {
    const e = await engine()
    const porto = await e.remember('I live in Porto')
    const lisbon = await e.remember('I moved to Lisbon, I live in Lisbon now', {
      supersedes: porto.id,
    })
    expect(await e.relations.of(porto.id)).toMatchObject([
      { from: lisbon.id, to: porto.id, kind: 'supersedes' },
    ])
    const ids = async (o = {}) =>
      (await e.recall('where do I live', { log: false, ...o })).hits.map((h) => h.id)
    expect(await ids()).toEqual([lisbon.id])
    expect(await ids({ includeSuperseded: true })).toEqual(
      expect.arrayContaining([lisbon.id, porto.id]),
    )
  })

  it('refuses a supersedes naming no memory, writing nothing', async () => {
    const e = await engine()
    await expect(e.remember('I moved to Lisbon', { supersedes: '01NOPE' })).rejects.toMatchObject({
      name: 'MemoryNotFoundError',
    })
    expect(await e.count()).toBe(0)
  })

  it('names a contradiction in both hits’ explanations', async () => {
    const e = await engine()
    const a = await e.remember('The office is on floor 3')
    const b = await e.remember('The office is on floor 5')
    await e.relations.add(b.id, a.id, 'contradicts')
    const { hits } = await e.recall('office floor', { log: false })
    const byId = new Map(hits.map((h) => [h.id, h.explanation]))
    expect(byId.get(a.id)).toContain(`contradicts ${b.id}`)
    expect(byId.get(b.id)).toContain(`contradicts ${a.id}`)
  })

  it('pulls related memories in with expand: 1, the edge in the explanation', async () => {
    const e = await engine()
    const deploy = await e.remember('Deploys go out through scripts/ship.sh')
    const smoke = await e.remember('Smoke tests need the staging token')
    await e.relations.add(deploy.id, smoke.id, 'depends_on')
    const plain = await e.recall('how do deploys go out', { log: false, k: 1 })
    expect(plain.hits.map((h) => h.id)).toEqual([deploy.id])
    const { hits } = await e.recall('how do deploys go out', { log: false, k: 1, expand: 1 })
    expect(hits.map((h) => [h.id, h.via, h.rank])).toEqual([
      [deploy.id, expect.any(String), 1],
      [smoke.id, 'rel', 2],
    ])
    expect(hits[1]!.explanation).toBe(`rel: ${deploy.id} depends_on ${smoke.id} (from #1) -> #2`)
    await expect(e.recall('x', { expand: 2 })).rejects.toMatchObject({ field: 'expand' })
  })
})

describe('feedback', () => {
  it('raises confidence for useful, halves it and flags for wrong, expires for outdated', async () => {
    let now = Date.UTC(2026, 0, 1)
    const e = await engine({ clock: () => now })
    const a = await e.remember('The office is on floor 3', { confidence: 0.6 })
    expect((await e.feedback(a.id, 'useful')).confidence).toBeCloseTo(0.7, 9)
    const wrong = await e.feedback(a.id, 'wrong')
    expect(wrong).toMatchObject({ needsReview: true })
    expect(wrong.confidence).toBeCloseTo(0.35, 9)
    expect((await e.list({ needsReview: true })).items.map((m) => m.id)).toEqual([a.id])
    expect((await e.recall('office floor', { log: false })).hits).toHaveLength(1)
    await e.feedback(a.id, 'outdated')
    now += 1
    expect((await e.recall('office floor', { log: false })).hits).toEqual([])
    expect((await e.list({ expired: true })).items).toHaveLength(1)
    await expect(e.feedback(a.id, 'meh' as never)).rejects.toMatchObject({ field: 'verdict' })
  })
})

describe('related neighbours on write', () => {
  it('reports a near-but-not-duplicate memory of the same type, closest first', async () => {
    const e = await engine({ retrieval: { relatedFloor: 0.5 } })
    const porto = await e.remember('I live in Porto, near the river')
    await e.remember('I live in Porto, near the river', { type: 'log' })
    await e.remember('Water the ficus every Sunday')
    const lisbon = await e.remember('I live in Lisbon, near the river')
    expect(lisbon.status).toBe('created')
    expect(lisbon.related?.map((r) => r.id)).toEqual([porto.id])
    const similarity = lisbon.related![0]!.similarity
    expect(similarity).toBeGreaterThanOrEqual(0.5)
    expect(similarity).toBeLessThan(0.97)
  })

  it('reports none under the floor, and none for a duplicate', async () => {
    const e = await engine()
    await e.remember('I live in Porto, near the river')
    expect((await e.remember('Water the ficus every Sunday')).related).toBeUndefined()
    expect((await e.remember('i live in porto, near the river')).related).toBeUndefined()
  })
})

describe('relations in export and import', () => {
  it('carries edges and lifecycle fields through an export into an empty memory', async () => {
    const e = await engine()
    const porto = await e.remember('I live in Porto', { tier: 'episodic', summary: 'Porto' })
    const lisbon = await e.remember('I live in Lisbon now', { supersedes: porto.id })
    const jsonl = await e.transfer.export()
    expect(JSON.parse(jsonl.split('\n')[0]!)).toMatchObject({ count: 2, relations: 1 })
    const f = await engine()
    await f.transfer.import(jsonl, { trust: 'trusted' })
    expect(await f.relations.of(porto.id)).toMatchObject([
      { from: lisbon.id, to: porto.id, kind: 'supersedes' },
    ])
    expect(await f.get(porto.id)).toMatchObject({ tier: 'episodic', summary: 'Porto' })
    expect((await f.recall('where do I live', { log: false })).hits.map((h) => h.id)).toEqual([
      lisbon.id,
    ])
  })

  it('rejects a relation line of an unknown kind, naming the line', async () => {
    const e = await engine()
    const lines = [
      '{"text":"a","id":"01AAAAAAAAAAAAAAAAAAAAAAAA"}',
      '{"relation":{"from":"01AAAAAAAAAAAAAAAAAAAAAAAA","to":"01B","kind":"likes"}}',
    ].join('\n')
    await expect(e.transfer.import(lines)).rejects.toMatchObject({
      name: 'ImportFormatError',
      line: 2,
    })
  })
})

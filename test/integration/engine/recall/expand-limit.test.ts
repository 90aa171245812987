/**
 * Issue 22 §13: `recall(…, { expand: 1 })` appended every neighbour of every hit, so a memory
 * related to a thousand others returned 1,003 hits whatever `k` said. Expansion now adds at
 * most `k` related memories, the closest hits' neighbours first.
 */
import { describe, expect, it } from 'vitest'
import { closingEngines } from '../../../helpers/engine.ts'

const engine = closingEngines()

describe('recall expand', () => {
  it('adds at most k related memories however many neighbours the hits have', async () => {
    const e = await engine()
    const hub = await e.remember('The release checklist lives in docs/release.md')
    const steps = await e.rememberMany(
      Array.from({ length: 12 }, (_, i) => ({ text: `Release step ${i}: tick box ${i * 7}` })),
    )
    for (const step of steps) await e.relations.add(hub.id, step.id, 'related_to')
    const recall = (k: number) =>
      e.recall('where is the checklist', { k, expand: 1, mode: 'keyword', log: false })
    const { hits } = await recall(2)
    expect(hits[0]!.id).toBe(hub.id)
    const related = hits.filter((h) => h.via === 'rel')
    expect(related).toHaveLength(2)
    expect(hits.length).toBeLessThanOrEqual(4)
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1))
    for (const hit of related) expect(hit.explanation).toMatch(/^rel: .* related_to .* \(from #1\)/)
    // With room for all of them, every neighbour comes.
    const wide = (await recall(20)).hits.filter((h) => h.via === 'rel').map((h) => h.id)
    expect(wide.sort()).toEqual(steps.map((s) => s.id).sort())
  })
})

import { describe, expect, it } from 'vitest'
import { chunkPage } from '../../../../src/core/page/chunk.ts'
import { planChunkUpdate, type StoredChunk } from '../../../../src/core/page/chunk-plan.ts'

const paragraph = (topic: string) =>
  Array.from({ length: 30 }, (_, i) => `Step ${i} of ${topic} is written down here.`).join(' ')

const stored = (page: string): StoredChunk[] =>
  chunkPage(page).map((c) => ({ id: `old-${c.index}`, text: c.text, headingPath: c.headingPath }))

describe('planChunkUpdate', () => {
  it('keeps every chunk of an unchanged page', () => {
    const page = `# A\n\n${paragraph('a')}\n\n# B\n\n${paragraph('b')}`
    const plan = planChunkUpdate(stored(page), chunkPage(page))
    expect(plan.added).toEqual([])
    expect(plan.removed).toEqual([])
    expect(plan.kept.map((k) => k.id)).toEqual(chunkPage(page).map((c) => `old-${c.index}`))
  })

  it('re-embeds only the chunks of the section that changed', () => {
    const before = `# A\n\n${paragraph('a')}\n\n# B\n\n${paragraph('b')}\n\n# C\n\n${paragraph('c')}`
    const after = before.replace('Step 3 of b', 'Step three of b')
    const next = chunkPage(after)
    const plan = planChunkUpdate(stored(before), next)
    expect(plan.added.length).toBeGreaterThan(0)
    for (const index of plan.added) expect(next[index]!.headingPath).toEqual(['B'])
    expect(plan.removed.length).toBe(plan.added.length)
    expect(plan.kept.length + plan.added.length).toBe(next.length)
  })

  it('keeps a chunk whose only change is the blank lines after it', () => {
    const plan = planChunkUpdate(stored('One.'), chunkPage('One.\n\n# New\n\nThree.'))
    expect(plan).toEqual({ kept: [{ index: 0, id: 'old-0' }], added: [1], removed: [] })
  })

  it('does not keep a chunk that moved under another heading', () => {
    const plan = planChunkUpdate(stored('# A\n\nSame text.'), chunkPage('# B\n\nSame text.'))
    expect(plan).toEqual({ kept: [], added: [0], removed: ['old-0'] })
  })
})

/**
 * Issue 26 §5: `recall(q, { context: n })` brings the n neighbours of a chunk or a turn (same
 * page, in order) with the hit, counted in the token budget.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import { estimateTokens } from '../../../../src/core/token-budget.ts'
import type { Memory } from '../../../../src/core/types.ts'
import { closingEngines } from '../../../helpers/engine.ts'
import { guide } from '../pages/page-fixture.ts'

const engine = closingEngines()
const MARKER = 'zanzibarite'

/** A long page with one rare word in its middle section; its chunks in order. */
async function page() {
  const e = await engine()
  const sections = guide(9).split('## ')
  sections[5] = sections[5]!.replace('.', `. The ${MARKER} gauge reads 4471.`)
  const { pageId } = await e.pages.remember({ title: 'Agent guide', text: sections.join('## ') })
  const chunks = (await e.list({ limit: 1000 })).items
    .filter((m) => m.pageId === pageId)
    .sort((a, b) => a.chunk! - b.chunk!)
  return { e, chunks }
}

const ids = (memories: Memory[] | undefined) => (memories ?? []).map((m) => m.id)

describe('recall context', () => {
  it('brings the chunks before and after a hit, in page order', async () => {
    const { e, chunks } = await page()
    expect(chunks.length).toBeGreaterThanOrEqual(5)
    const at = chunks.findIndex((c) => c.text.includes(MARKER))
    expect(at).toBeGreaterThan(1)
    const { hits } = await e.recall(MARKER, { mode: 'keyword', context: 2, log: false })
    expect(hits[0]!.id).toBe(chunks[at]!.id)
    expect(ids(hits[0]!.context?.before)).toEqual(ids(chunks.slice(at - 2, at)))
    expect(ids(hits[0]!.context?.after)).toEqual(ids(chunks.slice(at + 1, at + 3)))
  })

  it('brings nothing by default, and nothing for a fact', async () => {
    const { e } = await page()
    const fact = await e.remember(`The ${MARKER} supplier is Acme`)
    const plain = await e.recall(MARKER, { mode: 'keyword', log: false, collapsePages: false })
    expect(plain.hits.every((h) => h.context === undefined)).toBe(true)
    const withContext = await e.recall(MARKER, { mode: 'keyword', context: 3, log: false })
    expect(withContext.hits.find((h) => h.id === fact.id)!.context).toBeUndefined()
  })

  it('counts the neighbours in the token budget, and drops them before the hit', async () => {
    const { e, chunks } = await page()
    const at = chunks.findIndex((c) => c.text.includes(MARKER))
    const hit = estimateTokens(chunks[at]!.text)
    const around = [chunks[at - 1]!, chunks[at + 1]!].reduce(
      (n, c) => n + estimateTokens(c.text),
      0,
    )
    const recall = (tokenBudget: number) =>
      e.recall(MARKER, { mode: 'keyword', context: 1, tokenBudget, log: false })
    const roomy = await recall(hit + around)
    expect(ids(roomy.hits[0]!.context?.after)).toEqual([chunks[at + 1]!.id])
    const tight = await recall(hit + around - 1)
    expect(tight.hits[0]!.id).toBe(chunks[at]!.id)
    expect(tight.hits[0]!.context).toBeUndefined()
  })

  it('refuses a context outside 0..10', async () => {
    const e = await engine()
    for (const context of [-1, 11, 1.5, '2']) {
      await expect(e.recall('x', { context: context as number })).rejects.toBeInstanceOf(
        InvalidInputError,
      )
    }
  })
})

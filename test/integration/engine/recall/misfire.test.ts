import { afterEach, describe, expect, it } from 'vitest'
import type { MemoryEngine } from '../../../../src/engine/memory-engine.ts'
import { openTestEngine } from '../../../helpers/engine.ts'

// Regression tests for misfires found with `npm run eval` on LoCoMo (docs/quality.md).

const open: MemoryEngine[] = []
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((e) => e.close()))
})

async function engine(): Promise<MemoryEngine> {
  const e = await openTestEngine({ embedder: null })
  open.push(e)
  return e
}

describe('recall misfires', () => {
  it('does not let a tag most memories carry lift a weak match above the best one', async () => {
    // The tag list used to take the 30 most recently confirmed memories carrying the tag and
    // give them all one shared fusion rank: a memory that merely mentioned "up" outranked the
    // one about the pottery class.
    const e = await engine()
    const chatter = Array.from({ length: 60 }, (_, i) => ({
      text: `Chat line ${i}: what's up with you, how was the week?`,
      tags: ['Melanie'],
    }))
    const [answer] = await e.rememberMany([
      { text: 'I just signed up for a pottery class yesterday.', tags: ['Melanie'] },
    ])
    await e.rememberMany(chatter)
    const { hits } = await e.recall('When did Melanie sign up for a pottery class?', {
      mode: 'keyword',
    })
    expect(hits[0]!.id).toBe(answer!.id)
    expect(hits[0]!.explanation).toMatch(/tag \(#\d+\)/)
  })

  it('still ranks first a memory whose selective tag the query names', async () => {
    const e = await engine()
    const [tagged] = await e.rememberMany([
      { text: 'Blue-green switch in infra', tags: ['deploy'] },
    ])
    await e.rememberMany([{ text: 'Lunch is at noon' }, { text: 'The owner likes tea' }])
    const { hits } = await e.recall('deploy', { mode: 'keyword' })
    expect(hits[0]!.id).toBe(tagged!.id)
    expect(hits[0]!.via).toBe('kw')
  })

  it('ranks a memory holding the query words side by side above one holding them apart', async () => {
    // BM25 alone prefers the shorter memory; the phrase pass (phraseBoost) turns that round.
    const e = await engine()
    const [apart, together] = await e.rememberMany([
      { text: 'Group lunch, then support calls' },
      { text: 'The support group met again after the long storm last night' },
    ])
    const { hits } = await e.recall('support group', { mode: 'keyword' })
    expect(hits.map((h) => h.id)).toEqual([together!.id, apart!.id])
  })
})

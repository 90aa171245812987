import { describe, expect, it } from 'vitest'
import type { EvalSet } from '../../../scripts/eval/datasets.ts'
import { replayFusion } from '../../../scripts/eval/fusion-inputs.ts'
import { labCalibration } from '../../../scripts/eval/fusions.ts'
import { collectLists } from '../../../scripts/eval/lists.ts'
import { uniform } from '../../../scripts/models/rng.ts'
import { NGRAM_MODEL } from '../../../src/embedder/model-table.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'

const PEOPLE = ['Priya', 'Omar', 'Lena', 'Tomas', 'Aiko', 'Ravi', 'Noor', 'Elias', 'Mara', 'Jun']
const PLACES = ['Lisbon', 'Osaka', 'Nairobi', 'Quito', 'Oslo', 'Hanoi', 'Lima', 'Cork']
const THINGS = ['tea', 'chess', 'jazz', 'climbing', 'pottery', 'sailing', 'birds', 'baking']
const FORMS = [
  (p: string, x: string, y: string) => `${p} moved to ${x} and started ${y} lessons.`,
  (p: string, x: string, y: string) => `${p}'s favourite hobby is ${y}; she visits ${x} often.`,
  (p: string, x: string, y: string) => `Last spring ${p} went to ${x} for a ${y} festival.`,
  (p: string, x: string, y: string) => `${p} said ${y} in ${x} was the best part of the year.`,
]

/**
 * 160 seeded facts (more than the deep vector read of 120, so the cosine bound is in play),
 * with tags, and questions worded like and unlike them.
 */
function seededSet(): EvalSet {
  const next = uniform(2026)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!
  const items: EvalSet['stores'][number]['items'] = []
  const questions: EvalSet['stores'][number]['questions'] = []
  for (let i = 0; i < 160; i++) {
    const [p, x, y] = [pick(PEOPLE), pick(PLACES), pick(THINGS)]
    items.push({ keys: [`f${i}`], text: pick(FORMS)(p, x, y), tags: [p.toLowerCase()] })
    if (i % 4 === 0) {
      const query = pick([
        `where did ${p} go for ${y}?`,
        `${p} ${x}`,
        `what does ${p} like doing`,
        `${y} festival ${x}`,
      ])
      questions.push({ query, relevant: [`f${i}`], kind: 'fact' })
    }
  }
  return {
    name: 'seeded',
    format: 'generic',
    unit: 'turns',
    stores: [{ name: 'seeded', items, questions }],
    skipped: {},
    apart: [],
  }
}

describe('the fusion lab replay (scripts/eval/fusion-inputs.ts)', () => {
  it('reproduces the engine hybrid order of every candidate from the recorded inputs', async () => {
    const collected = await collectLists(seededSet(), new NgramEmbedder())
    const questions = collected.stores[0]!.questions
    const calibration = labCalibration(NGRAM_MODEL)
    let reordered = 0
    for (const q of questions) {
      const f = q.fusion!
      expect(f.keywordMismatches).toBe(0)
      expect(f.bound).toBeTypeOf('number')
      expect(f.order.length).toBeGreaterThan(10)
      expect(replayFusion(f, { calibration })).toEqual(f.order)
      expect(f.order.slice(0, 10)).toEqual(q.engineOff!.hybrid)
      // A replay that ignored its rule would match here too: another rule must reorder some.
      const rrf = replayFusion(f, { calibration: undefined, fusion: 'rrf', rrfK: 60 })
      if (rrf.join() !== f.order.join()) reordered++
    }
    expect(questions.length).toBe(40)
    expect(reordered).toBeGreaterThan(0)
  }, 120_000)
})

import { describe, expect, it } from 'vitest'
import {
  type EvalSet,
  fromGeneric,
  fromLocomo,
  LOCOMO_TUNE_CONVERSATIONS,
  type LocomoConversation,
  splitSet,
} from '../../../scripts/eval/datasets.ts'

// Five made-up one-turn conversations in LoCoMo's shape: no real data.
function conversation(n: number, withBadQuestion: boolean): LocomoConversation {
  return {
    sample_id: `conv-${n}`,
    conversation: {
      session_1_date_time: '9:00 am on 2 March, 2024',
      session_1: [{ speaker: 'Ana', dia_id: 'D1:1', text: `fact ${n}` }],
    },
    qa: [
      { question: `what is fact ${n}?`, evidence: ['D1:1'], category: 1 },
      ...(withBadQuestion ? [{ question: 'unanswerable', evidence: ['D9:9'], category: 1 }] : []),
    ],
  }
}

const five = fromLocomo(
  [1, 2, 3, 4, 5].map((n) => conversation(n, n === 2 || n === 5)),
  'five',
  'turns',
)

describe('splitSet', () => {
  it('tunes on the first conversations in file order and holds out the rest', () => {
    expect(LOCOMO_TUNE_CONVERSATIONS).toBe(3)
    expect(splitSet(five, 'tune').stores.map((s) => s.name)).toEqual(['conv-1', 'conv-2', 'conv-3'])
    expect(splitSet(five, 'holdout').stores.map((s) => s.name)).toEqual(['conv-4', 'conv-5'])
    expect(splitSet(five, 'all')).toBe(five)
  })

  it("counts only the split's own skipped questions and names the split", () => {
    expect(five.skipped).toEqual({ 'no evidence after cleaning': 2 })
    const tune = splitSet(five, 'tune')
    expect(tune.skipped).toEqual({ 'no evidence after cleaning': 1 })
    expect(tune.name).toBe('five (tune)')
    expect(splitSet(five, 'holdout').skipped).toEqual({ 'no evidence after cleaning': 1 })
  })

  it('leaves a generic file whole in every split', () => {
    const generic: EvalSet = fromGeneric({
      memories: [{ id: 'a', text: 'x' }],
      queries: [{ q: 'x', relevant: ['a'] }],
    })
    expect(splitSet(generic, 'tune')).toBe(generic)
    expect(splitSet(generic, 'holdout')).toBe(generic)
  })
})

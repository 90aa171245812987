import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  digestOf,
  loadOwn,
  loadPublic,
  PUBLIC_TRAIN,
  trainingSet,
  trainShipped,
} from '../../../../../scripts/train-poison.ts'
import { readable } from '../../../../../src/core/poison/model/features.ts'
import { scoreReading } from '../../../../../src/core/poison/model/learned.ts'
import { featurise, quantise, train } from '../../../../../src/core/poison/model/train.ts'
import { LEARNED_WEIGHTS } from '../../../../../src/core/poison/model/weights.ts'
import { syntheticExamples } from '../../../../fixtures/poison-synthetic.ts'

describe('training the learned stage', () => {
  it('trains the same int8 weights twice from the same examples and seed, and a different seed changes them', () => {
    const examples = syntheticExamples(60, 7)
    const once = quantise(train(examples, featurise(examples), { epochs: 4 }))
    const twice = quantise(train(examples, featurise(examples), { epochs: 4 }))
    const other = quantise(train(examples, featurise(examples), { epochs: 4, seed: 25 }))
    expect(digestOf(twice)).toBe(digestOf(once))
    expect(twice.bias).toBe(once.bias)
    expect(digestOf(other)).not.toBe(digestOf(once))
  })

  it('learns to tell the synthetic attacks it never saw from the benign texts', () => {
    const examples = syntheticExamples(60, 7)
    const model = quantise(train(examples, featurise(examples), { epochs: 4 }))
    const unseen = syntheticExamples(20, 99)
    const logit = (text: string) => scoreReading(readable(text), model).logit
    for (const example of unseen) {
      if (example.label === 1) expect(logit(example.text)).toBeGreaterThan(0)
      else expect(logit(example.text)).toBeLessThan(0)
    }
  })

  it.skipIf(!existsSync(PUBLIC_TRAIN))(
    'reproduces the committed weights from ../shared/eval/poison (skipped without it: a fresh clone has no ../shared)',
    () => {
      const model = trainShipped(trainingSet([...loadPublic(), ...loadOwn()]))
      expect(digestOf(model)).toBe(LEARNED_WEIGHTS.digest)
      expect(model.shift).toBe(LEARNED_WEIGHTS.shift)
      expect(model.bias).toBe(LEARNED_WEIGHTS.bias)
    },
    300_000,
  )
})

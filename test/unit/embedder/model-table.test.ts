import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRIEVAL } from '../../../src/core/options'
import {
  calibrationFor,
  DEFAULT_MODEL,
  MODEL_TABLE,
  NGRAM_CALIBRATION,
  NGRAM_MODEL,
  nearDuplicateFor,
  TFJS_MODEL_TABLE,
  USE_LITE_MODEL,
} from '../../../src/embedder/model-table'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder'

describe('model calibrations in the model table', () => {
  it('gives the n-gram embedder its calibration under the id the embedder reports', () => {
    expect(new NgramEmbedder().model).toBe(NGRAM_MODEL)
    expect(calibrationFor(NGRAM_MODEL)).toBe(NGRAM_CALIBRATION)
    expect(NGRAM_CALIBRATION.unrelated).toBeCloseTo(0.05, 12)
  })

  it('reads USE-lite calibration from its TF.js table entry', () => {
    const use = calibrationFor(USE_LITE_MODEL)
    expect(use).toBe(TFJS_MODEL_TABLE[USE_LITE_MODEL]!.calibration)
    expect(use).toMatchObject({ unrelated: 0.14, spread: 0.1, nearDuplicate: 0.95, vectorShare: 3 })
  })

  it('has no calibration for bge, unknown models, no model or inherited names', () => {
    expect(MODEL_TABLE[DEFAULT_MODEL]!.calibration).toBeUndefined()
    expect(calibrationFor(DEFAULT_MODEL)).toBeUndefined()
    expect(calibrationFor('someone/else')).toBeUndefined()
    expect(calibrationFor(undefined)).toBeUndefined()
    expect(calibrationFor('toString')).toBeUndefined()
  })

  it('takes the near-duplicate cosine from the model, else the fallback', () => {
    expect(nearDuplicateFor(USE_LITE_MODEL, 0.97)).toBe(0.95)
    expect(nearDuplicateFor(NGRAM_MODEL, 0.5)).toBe(0.97)
    expect(nearDuplicateFor(DEFAULT_MODEL, DEFAULT_RETRIEVAL.nearDuplicate)).toBe(0.97)
    expect(nearDuplicateFor(undefined, 0.9)).toBe(0.9)
  })

  it('keeps every calibration inside the ranges its fields document', () => {
    for (const c of [NGRAM_CALIBRATION, calibrationFor(USE_LITE_MODEL)!]) {
      expect(c.unrelated).toBeGreaterThan(-1)
      expect(c.unrelated).toBeLessThan(1)
      expect(c.spread).toBeGreaterThan(0)
      expect(c.nearDuplicate).toBeGreaterThan(0)
      expect(c.vectorShare).toBeGreaterThanOrEqual(0)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { DAY_MS, DEFAULT_LIFECYCLE } from '../../../../src/core/options.ts'
import { reviewAction } from '../../../../src/engine/review/rules.ts'

const L = DEFAULT_LIFECYCLE
const t0 = Date.UTC(2026, 0, 1)
const memory = (fields = {}) => ({
  type: 'fact',
  tier: 'episodic' as const,
  confidence: 0.6,
  confirmedAt: t0,
  confirmations: 1,
  recallCount: 0,
  ...fields,
})

describe('reviewAction', () => {
  it('leaves a fresh memory alone', () => {
    expect(reviewAction(memory(), t0, L)).toEqual({})
  })

  it('archives an expired memory once, then removes it after the grace period', () => {
    const expired = t0 + 30 * DAY_MS
    expect(reviewAction(memory(), expired, L)).toEqual({ archive: true })
    expect(reviewAction(memory({ archivedAt: expired }), expired + DAY_MS, L)).toEqual({})
    expect(reviewAction(memory(), expired + 7 * DAY_MS - 1, L)).toEqual({ archive: true })
    expect(reviewAction(memory(), expired + 7 * DAY_MS, L)).toEqual({ remove: true })
  })

  it('flags a memory whose confidence fell under the bar, once', () => {
    const later = t0 + 29 * DAY_MS
    expect(reviewAction(memory({ confidence: 0.5 }), later, L)).toEqual({ flag: true })
    expect(reviewAction(memory({ confidence: 0.5, needsReview: true }), later, L)).toEqual({})
    expect(reviewAction(memory({ confidence: 0.9 }), later, L)).toEqual({})
  })

  it('promotes a much-recalled working memory to episodic, and never past procedural', () => {
    expect(reviewAction(memory({ tier: 'working', recallCount: 3 }), t0, L)).toEqual({
      promote: 'episodic',
    })
    expect(reviewAction(memory({ tier: 'working', recallCount: 2 }), t0, L)).toEqual({})
    expect(reviewAction(memory({ tier: 'episodic', recallCount: 10 }), t0, L)).toEqual({
      promote: 'semantic',
    })
    expect(reviewAction(memory({ tier: 'procedural', recallCount: 99 }), t0, L)).toEqual({})
  })
})

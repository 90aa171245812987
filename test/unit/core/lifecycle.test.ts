import { describe, expect, it } from 'vitest'
import {
  confidenceAt,
  confidenceFactor,
  describeConfidence,
  expiresAtOf,
  isExpired,
  startConfidence,
  tierOf,
} from '../../../src/core/lifecycle.ts'
import { DAY_MS, DEFAULT_LIFECYCLE } from '../../../src/core/options.ts'

const L = DEFAULT_LIFECYCLE
const t0 = Date.UTC(2026, 0, 1)
const memory = (fields: Partial<Parameters<typeof confidenceAt>[0]> = {}) => ({
  type: 'fact',
  confidence: 0.9,
  confirmedAt: t0,
  confirmations: 1,
  recallCount: 0,
  ...fields,
})

describe('tierOf', () => {
  it('gives each known type its default tier and keeps an explicit one', () => {
    expect(tierOf({ type: 'log' }, L)).toBe('episodic')
    expect(tierOf({ type: 'fact' }, L)).toBe('semantic')
    expect(tierOf({ type: 'page' }, L)).toBe('semantic')
    expect(tierOf({ type: 'skill' }, L)).toBe('procedural')
    expect(tierOf({ type: 'recipe' }, L)).toBe('semantic')
    expect(tierOf({ type: 'log', tier: 'working' }, L)).toBe('working')
  })
})

describe('startConfidence', () => {
  it('ranks the user above an agent above an import, and caps untrusted writes', () => {
    const user = startConfidence(undefined, 'user', 'unverified', L)
    const agent = startConfidence(undefined, 'agent', 'unverified', L)
    const imported = startConfidence(undefined, 'import', 'unverified', L)
    expect(user).toBeGreaterThan(agent)
    expect(agent).toBeGreaterThan(imported)
    expect(startConfidence(undefined, 'user', 'untrusted', L)).toBe(L.untrustedCeiling)
  })

  it('maps the level words onto numbers and keeps a given number', () => {
    expect(startConfidence('high', 'agent', 'unverified', L)).toBe(0.9)
    expect(startConfidence('medium', 'agent', 'unverified', L)).toBe(0.6)
    expect(startConfidence('low', 'agent', 'unverified', L)).toBe(0.3)
    expect(startConfidence(0.42, 'user', 'trusted', L)).toBe(0.42)
  })
})

describe('confidenceAt', () => {
  it('is the confidence at write for a memory used just now', () => {
    expect(confidenceAt(memory(), t0, L).value).toBe(0.9)
  })

  it('decays a 15-day-old episodic memory more than a 15-day-old semantic one', () => {
    const at = t0 + 15 * DAY_MS
    const episodic = confidenceAt(memory({ tier: 'episodic' }), at, L).value
    const semantic = confidenceAt(memory({ tier: 'semantic' }), at, L).value
    expect(episodic).toBeCloseTo(0.9 * Math.SQRT1_2, 9)
    expect(semantic).toBeGreaterThan(episodic)
    expect(semantic).toBeLessThan(0.9)
  })

  it('halves over each TTL of disuse, so the curve falls steadily', () => {
    const curve = [0, 30, 60, 90].map(
      (d) => confidenceAt(memory({ tier: 'episodic' }), t0 + d * DAY_MS, L).value,
    )
    expect(curve.map((c) => Number(c.toFixed(4)))).toEqual([0.9, 0.45, 0.225, 0.1125])
  })

  it('is reinforced by recalls and confirmations, and a recall restarts the idle clock', () => {
    const at = t0 + 20 * DAY_MS
    const idle = confidenceAt(memory({ tier: 'episodic' }), at, L)
    const recalled = confidenceAt(
      memory({ tier: 'episodic', recallCount: 3, lastRecalledAt: at - DAY_MS }),
      at,
      L,
    )
    const confirmed = confidenceAt(memory({ tier: 'episodic', confirmations: 4 }), at, L)
    expect(recalled.value).toBeGreaterThan(idle.value)
    expect(recalled.idleDays).toBe(1)
    expect(confirmed.value).toBeGreaterThan(idle.value)
    expect(confirmed.confirmations).toBe(3)
  })

  it('treats a last use in the future (clock skew) as now', () => {
    expect(confidenceAt(memory({ confirmedAt: t0 + DAY_MS }), t0, L).value).toBe(0.9)
  })

  it('reads a confidence word from a row written before confidence was a number', () => {
    expect(confidenceAt(memory({ confidence: 'high' }), t0, L).start).toBe(0.9)
  })
})

describe('expiry', () => {
  it('expires a memory one TTL after its last use, or at its own expiresAt if sooner', () => {
    const working = memory({ tier: 'working' })
    expect(expiresAtOf(working, L)).toBe(t0 + DAY_MS)
    expect(isExpired(working, t0 + DAY_MS - 1, L)).toBe(false)
    expect(isExpired(working, t0 + DAY_MS, L)).toBe(true)
    const used = memory({ tier: 'working', lastRecalledAt: t0 + 12 * 3_600_000 })
    expect(isExpired(used, t0 + DAY_MS, L)).toBe(false)
    expect(expiresAtOf(memory({ expiresAt: t0 + 5 }), L)).toBe(t0 + 5)
  })
})

describe('describeConfidence and confidenceFactor', () => {
  it('reads as the issue shows it', () => {
    const reading = confidenceAt(memory({ tier: 'episodic', recallCount: 3 }), t0 + 15 * DAY_MS, L)
    expect(describeConfidence(reading)).toBe(
      'confidence 0.65 (0.90 at write; episodic, 15 of 30 days; recalled 3 times)',
    )
  })

  it('is neutral at medium and matches the old level factors at low and high', () => {
    expect(confidenceFactor(0.6, 1.2, 0.8)).toBe(1)
    expect(confidenceFactor(0.9, 1.2, 0.8)).toBe(1.2)
    expect(confidenceFactor(0.3, 1.2, 0.8)).toBe(0.8)
    expect(confidenceFactor(0.45, 1.2, 0.8)).toBe(0.9)
  })
})

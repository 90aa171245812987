import { describe, expect, it } from 'vitest'
import { distribution } from '../../../scripts/eval/calibrate.ts'

describe('distribution', () => {
  it('gives mean, standard deviation and nearest-rank percentiles', () => {
    const values = Array.from({ length: 101 }, (_, i) => i / 100)
    const d = distribution(values)
    expect(d.n).toBe(101)
    expect(d.mean).toBeCloseTo(0.5, 12)
    expect(d.sd).toBeCloseTo(Math.sqrt(values.reduce((s, x) => s + (x - 0.5) ** 2, 0) / 101), 12)
    expect(d.p).toEqual({
      p01: 0.01,
      p05: 0.05,
      p25: 0.25,
      p50: 0.5,
      p75: 0.75,
      p95: 0.95,
      p99: 0.99,
    })
  })

  it('does not depend on input order', () => {
    expect(distribution([3, 1, 2]).p.p50).toBe(2)
    expect(distribution([3, 1, 2]).p.p01).toBe(1)
  })
})

import { describe, expect, it } from 'vitest'
import { compareVersions, joinVersions, nextVersion } from '../../../src/sync/versions.ts'
import { hashSeed, TEST_SEED, uniform } from '../../helpers/random.ts'

describe('version vectors', () => {
  it('orders a version before one that has seen it, and apart from one that has not', () => {
    const base = nextVersion(undefined, 'a')
    const onA = nextVersion(base, 'a')
    const onB = nextVersion(base, 'b')
    expect(compareVersions(base, onA)).toBe('before')
    expect(compareVersions(onA, base)).toBe('after')
    expect(compareVersions(onA, onB)).toBe('concurrent')
    expect(compareVersions(onA, { ...onA })).toBe('equal')
    const merged = joinVersions(onA, onB)
    expect(compareVersions(onA, merged)).toBe('before')
    expect(compareVersions(onB, merged)).toBe('before')
  })

  it('joins to the same version whatever the order, one that every input is before or equal to', () => {
    const next = uniform(hashSeed(`versions-${TEST_SEED}`))
    const versions = Array.from({ length: 6 }, () =>
      Object.fromEntries(['a', 'b', 'c'].map((d) => [d, Math.floor(next() * 5)])),
    )
    const joined = joinVersions(...versions)
    for (const v of versions) expect(['before', 'equal']).toContain(compareVersions(v, joined))
    expect(joinVersions(...[...versions].reverse())).toEqual(joined)
  })
})

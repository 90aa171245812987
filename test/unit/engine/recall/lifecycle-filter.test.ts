import { describe, expect, it } from 'vitest'
import { DEFAULT_LIFECYCLE } from '../../../../src/core/options.ts'
import type { Memory, Tier } from '../../../../src/core/types.ts'
import { Catalogue } from '../../../../src/engine/index/catalogue.ts'
import { lifecycleFilter } from '../../../../src/engine/recall/lifecycle-filter.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'
import { row } from '../fixtures.ts'

const DAY = 86_400_000
const NOW = Date.UTC(2024, 2, 14, 12)
const TIERS: (Tier | undefined)[] = [undefined, 'working', 'episodic', 'semantic', 'procedural']
const TYPES = ['fact', 'preference', 'event', 'note']

/** Rows of every tier and type, used and unused, some with an `expiresAt` of their own. */
function rows(count: number): Memory[] {
  const random = uniform(TEST_SEED)
  return Array.from({ length: count }, (_, i) => {
    const confirmedAt = NOW - Math.floor(random() * 400) * DAY
    const fields: Partial<Memory> = {
      type: TYPES[i % TYPES.length] as string,
      confirmedAt,
      createdAt: confirmedAt - Math.floor(random() * 30) * DAY,
    }
    const tier = TIERS[Math.floor(random() * TIERS.length)]
    if (tier) fields.tier = tier
    if (random() < 0.3) fields.lastRecalledAt = confirmedAt + Math.floor(random() * 200) * DAY
    if (random() < 0.2) fields.expiresAt = NOW + Math.floor((random() - 0.5) * 60) * DAY
    return row(String(i).padStart(4, '0'), `Note ${i}`, fields)
  })
}

describe('lifecycleFilter', () => {
  it('reads expiry from the catalogue’s columns as from whole rows', () => {
    const notes = rows(400)
    const map = new Map(notes.map((m) => [m.id, m]))
    const catalogue = new Catalogue(notes)
    const windows = [{ start: NOW - 200 * DAY, end: NOW - 100 * DAY }]
    for (const scope of [{}, { windows }, { since: NOW - 30 * DAY }]) {
      const fromRows = notes.filter((m) =>
        lifecycleFilter(map, scope, NOW, DEFAULT_LIFECYCLE)(m.id),
      )
      const fromColumns = notes.filter((m) =>
        lifecycleFilter(catalogue, scope, NOW, DEFAULT_LIFECYCLE)(m.id),
      )
      expect(fromColumns.map((m) => m.id)).toEqual(fromRows.map((m) => m.id))
      // Some expire and some do not, so the comparison means something.
      expect(fromRows.length).toBeGreaterThan(0)
      expect(fromRows.length).toBeLessThan(notes.length)
    }
    expect(lifecycleFilter(catalogue, {}, NOW, DEFAULT_LIFECYCLE)('missing')).toBe(false)
  })
})

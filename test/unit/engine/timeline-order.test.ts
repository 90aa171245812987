/**
 * The timeline keeps only a page of rows as they stream past (`NewestFirst`): the same page, in
 * the same order, as sorting every row would give, ties on time broken by id.
 */
import { describe, expect, it } from 'vitest'
import { NewestFirst } from '../../../src/engine/timeline.ts'
import { uniform } from '../../helpers/random.ts'
import { row } from './fixtures.ts'

const DAY = 86_400_000

function memories(seed: number, n: number) {
  const next = uniform(seed)
  return Array.from({ length: n }, (_, i) => {
    // Few distinct days, so many rows tie on time and the id decides.
    const at = Date.UTC(2024, 0, 1) + Math.floor(next() * 12) * DAY
    const id = `m${String(Math.floor(next() * 1e6)).padStart(6, '0')}${i}`
    return next() < 0.5
      ? row(id, `event ${i}`, { createdAt: at })
      : row(id, `event ${i}`, { createdAt: 0, happenedAt: at })
  })
}

const timeOf = (m: { happenedAt?: number; createdAt: number }) => m.happenedAt ?? m.createdAt
const sorted = (ms: ReturnType<typeof memories>) =>
  [...ms].sort((a, b) => timeOf(b) - timeOf(a) || (a.id < b.id ? 1 : -1)).map((m) => m.id)

describe('the timeline page order', () => {
  it('keeps the newest rows of any stream, as a full sort orders them', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const ms = memories(seed, 300)
      for (const size of [1, 7, 21, 300, 400]) {
        const top = new NewestFirst(size)
        for (const m of ms) top.offer(m)
        expect(top.items().map((m) => m.id)).toEqual(sorted(ms).slice(0, size))
      }
    }
  })

  it('holds nothing when nothing is offered', () => {
    expect(new NewestFirst(5).items()).toEqual([])
  })
})

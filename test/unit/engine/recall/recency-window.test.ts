import { describe, expect, it } from 'vitest'
import {
  DEFAULT_LIFECYCLE,
  DEFAULT_LIMITS,
  DEFAULT_RETRIEVAL,
} from '../../../../src/core/options.ts'
import type { IndexFailure } from '../../../../src/core/types.ts'
import { runRecall } from '../../../../src/engine/recall/index.ts'
import { checkRecallOptions } from '../../../../src/engine/recall/options.ts'
import { indexed, row } from '../fixtures.ts'

const rows = [
  row('03', 'The spare key moved to the neighbour, Ana'),
  row('02', 'Water the ficus every Sunday'),
  row('01', 'The spare key is under the blue pot'),
  row('00', 'A spare room upstairs', { namespace: 'other' }),
]

const failure: IndexFailure = {
  state: 'failed',
  error: { name: 'TypeError', code: 'STORAGE', message: 'cannot join null' },
  since: 0,
  lastTriedAt: 0,
  attempts: 1,
}

async function recallWith(unavailable: boolean, query: string, failed?: IndexFailure) {
  const indexes = await indexed([...rows])
  const o = checkRecallOptions(query, {}, {}, DEFAULT_LIMITS)
  return runRecall(
    {
      indexes,
      vectorBlocker: () => 'no-embedder',
      retrieval: DEFAULT_RETRIEVAL,
      limits: DEFAULT_LIMITS,
      lifecycle: DEFAULT_LIFECYCLE,
      recent: async (limit) => rows.slice(0, limit),
      indexesUnavailable: () => unavailable,
      indexFailure: () => failed,
      now: 0,
    },
    query,
    o,
  )
}

describe('the recency window', () => {
  it('answers from the newest rows, most words matched first, while the indexes are unavailable', async () => {
    const out = await recallWith(true, 'spare key')
    expect(out.degraded).toBe('recency')
    expect(out.hits.map((h) => [h.id, h.via, h.terms])).toEqual([
      ['03', 'recent', ['spare', 'key']],
      ['01', 'recent', ['spare', 'key']],
    ])
    expect(out.hits[0]!.explanation).toBe(
      'recent: matched [spare, key] among the newest 500 (indexes rebuilding) -> #1',
    )
  })

  it('names the failure and its code when the indexes failed to restore, not a rebuild', async () => {
    const out = await recallWith(true, 'ficus', failure)
    expect(out.hits.map((h) => h.explanation)).toEqual([
      'recent: matched [ficus] among the newest 500 (indexes failed to restore: STORAGE) -> #1',
    ])
  })

  it('uses the indexes as soon as they are available', async () => {
    const out = await recallWith(false, 'spare key')
    expect(out.degraded).toBe('no-embedder')
    expect(out.hits.map((h) => h.via)).not.toContain('recent')
  })
})

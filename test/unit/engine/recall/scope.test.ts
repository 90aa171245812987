import { describe, expect, it } from 'vitest'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'
import { recallScope } from '../../../../src/engine/recall/scope.ts'
import { indexed, row } from '../fixtures.ts'

const base = { namespace: 'default', includeFlagged: true }

describe('recallScope', () => {
  it('accepts only what the filter allows', async () => {
    const indexes = await indexed([
      row('a', 'deploy on fridays', { tags: ['Deploy'] }),
      row('b', 'deploy the lights', { namespace: 'home' }),
      row('c', 'deploy with care', { type: 'skill', trust: 'trusted' }),
      row('d', 'deploy expired', { expiresAt: 10 }),
      row('e', 'deploy flagged', { flags: ['override'] }),
    ])
    const q = analyzeQuery('deploy', indexes.keyword)
    const ids = ['a', 'b', 'c', 'd', 'e']
    const allowed = (o: Parameters<typeof recallScope>[2]) =>
      ids.filter(recallScope(indexes, q, o, 100).accept)
    expect(allowed(base)).toEqual(['a', 'c', 'e'])
    expect(allowed({ ...base, types: ['skill'] })).toEqual(['c'])
    expect(allowed({ ...base, tags: ['deploy'] })).toEqual(['a'])
    expect(allowed({ ...base, minTrust: 'trusted' })).toEqual(['c'])
    expect(allowed({ ...base, includeFlagged: false })).toEqual(['a', 'c'])
    expect(ids.filter(recallScope(indexes, q, base, 5).accept)).toContain('d')
  })

  it('asks every quoted phrase of the strict lists only', async () => {
    const indexes = await indexed([
      row('a', 'Error: ECONNRESET: socket hang up'),
      row('b', 'the socket did hang, then gave up'),
    ])
    const scope = recallScope(indexes, analyzeQuery('"socket hang up"', indexes.keyword), base, 0)
    expect(['a', 'b'].filter(scope.strict)).toEqual(['a'])
    expect(['a', 'b'].filter(scope.accept)).toEqual(['a', 'b'])
  })
})

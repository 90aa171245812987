import { describe, expect, it } from 'vitest'
import { browseFilter } from '../../../src/app/browse-filters.ts'

function form(fields: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('browseFilter', () => {
  it('filters nothing when every field is left empty or blank', () => {
    expect(browseFilter(form({ type: '  ', tag: '', tier: '', expired: '' }))).toEqual({})
  })

  it('trims the type and tag it filters by', () => {
    expect(browseFilter(form({ type: ' fact ', tag: 'family ' }))).toEqual({
      type: 'fact',
      tag: 'family',
    })
  })

  it('asks for one tier, expired only and flagged only as the documented example shows', () => {
    expect(browseFilter(form({ tier: 'working', expired: 'expired', needsReview: 'on' }))).toEqual({
      tier: 'working',
      expired: true,
      needsReview: true,
    })
  })

  it('asks for live memories only with expired: false', () => {
    expect(browseFilter(form({ expired: 'live' }))).toEqual({ expired: false })
  })

  it('passes an unknown tier on, for list() to reject with its typed error', () => {
    expect(browseFilter(form({ tier: 'eternal' }))).toEqual({ tier: 'eternal' })
  })

  it('ignores an expired value it does not offer', () => {
    expect(browseFilter(form({ expired: 'sometimes' }))).toEqual({})
  })
})

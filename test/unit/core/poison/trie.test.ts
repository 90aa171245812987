import { describe, expect, it } from 'vitest'
import { trieSource } from '../../../../src/core/poison/trie.ts'

describe('trieSource', () => {
  const re = new RegExp(
    `\\b${trieSource(['disregard$', 'discard$', 'pay no attention to', 'ignor', 'ignore all'])}`,
  )

  it('matches every term, whole words only where marked with $', () => {
    expect(re.exec('please disregard it')?.[0]).toBe('disregard')
    expect(re.exec('discard it')?.[0]).toBe('discard')
    expect(re.test('disregarded')).toBe(false)
    expect(re.exec('ignoring')?.[0]).toBe('ignor')
  })

  it('lets spaces match any whitespace and escapes special characters', () => {
    expect(re.test('pay  no\nattention to')).toBe(true)
    expect(new RegExp(trieSource(['a.b', '(x)'])).test('a.b')).toBe(true)
    expect(new RegExp(trieSource(['a.b'])).test('axb')).toBe(false)
  })
})

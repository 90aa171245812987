import { describe, expect, it } from 'vitest'
import { mayMerge, namedTokens, speakerOf } from '../../../src/core/near-duplicate'

describe('namedTokens', () => {
  it('keeps numbers, identifiers and capitalised words, not grammatical capitals', () => {
    expect(namedTokens('Nate: Bye Joanna!')).toEqual(['nate', 'bye', 'joanna'])
    expect(namedTokens("My brother is Tom; Hannah's is Felix")).toEqual(['tom', 'hannah', 'felix'])
    expect(namedTokens('The payments service listens on port 7443')).toEqual(['7443'])
    expect(namedTokens('I take vitamin D')).toEqual(['d'])
    expect(namedTokens('Run tools/release.sh with new_checkout_flow on')).toEqual([
      'run',
      'tools/release.sh',
      'new_checkout_flow',
    ])
    expect(namedTokens("I'm sure the wi-fi works")).toEqual([])
  })
})

describe('speakerOf', () => {
  it('reads a leading speaker label', () => {
    expect(speakerOf('Nate: Bye Joanna!')).toBe('nate')
    expect(speakerOf('Dr Okafor: take two')).toBe('dr okafor')
    expect(speakerOf('Bye Joanna!')).toBeUndefined()
    expect(speakerOf('note: lower case is no speaker')).toBeUndefined()
  })
})

describe('mayMerge', () => {
  it('vetoes facts that differ in a name, number or identifier', () => {
    expect(mayMerge('Bye Nate!', 'Bye Joanna!')).toBe(false)
    expect(mayMerge('My brother is Tom', 'My brother is Sam')).toBe(false)
    expect(mayMerge('Backups are kept for 35 days', 'Backups are kept for 14 days')).toBe(false)
    expect(mayMerge('Anika owns search', 'Bruno owns search')).toBe(false)
    expect(mayMerge('My dentist is Dr. Okafor', 'My dentist is Dr. Sandhu')).toBe(false)
    expect(mayMerge('The script is tools/release.sh', 'The script is tools/publish.sh')).toBe(false)
  })

  it('vetoes the same words said by a different speaker', () => {
    expect(mayMerge('Nate: Bye Joanna!', 'Joanna: Bye Nate!')).toBe(false)
    expect(mayMerge('Nate: Bye Joanna!', 'Bye Joanna!')).toBe(false)
  })

  it('lets rewordings that name the same things through, in any order', () => {
    expect(mayMerge('Tom is my brother', 'My brother is Tom')).toBe(true)
    expect(mayMerge('Port 7443 is where payments listen', 'Payments listen on port 7443')).toBe(
      true,
    )
    expect(mayMerge("I don't eat pork", 'I do not eat pork')).toBe(true)
    expect(mayMerge('Every morning I take vitamin D', 'I take vitamin D every morning')).toBe(true)
    expect(mayMerge('Joanna: Thanks, Nate!', 'Joanna: Thanks Nate!')).toBe(true)
  })

  it('leaves facts that differ only in common words to the cosine', () => {
    expect(mayMerge('Leo plays the cello', 'Leo plays the violin')).toBe(true)
  })
})

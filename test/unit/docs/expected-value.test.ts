/**
 * The docs' `// =>` promises: what a literal matches (ULIDs, `…`, rounded decimals, the fields
 * written), where prose starts, and how a block is rewritten to report each statement's value.
 */
import { describe, expect, it } from 'vitest'
import { extractBlocks, instrument } from '../../../scripts/docs/code-blocks.ts'
import { mismatch, parseExpected } from '../../../scripts/docs/expected-value.ts'

function check(actual: unknown, expected: string): string | undefined {
  const parsed = parseExpected(expected)
  if (!parsed) throw new Error(`no literal in ${expected}`)
  return mismatch(actual, parsed.value)
}

describe('parseExpected and mismatch', () => {
  it('matches any ULID where the doc shows one, and nothing else there', () => {
    const doc = "{ id: '01M8P0XXV6W9YS4WKPD5Y0D8AZ', status: 'created' }"
    expect(check({ id: '01JZZZZZZZZZZZZZZZZZZZZZZZ', status: 'created', extra: 1 }, doc)).toBe(
      undefined,
    )
    expect(check({ id: 'not-a-ulid', status: 'created' }, doc)).toMatch(/\$\.id: expected a ULID/)
    expect(check({ id: '01JZZZZZZZZZZZZZZZZZZZZZZZ', status: 'duplicate' }, doc)).toMatch(
      /\$\.status/,
    )
  })

  it('rounds a number to the places the doc wrote, and lets … stand for any value', () => {
    expect(check({ cosine: 0.4612, tookMs: 13.7 }, '{ cosine: 0.46, tookMs: … }')).toBe(undefined)
    expect(check({ cosine: 0.47, tookMs: 1 }, '{ cosine: 0.46, tookMs: … }')).toMatch(/cosine/)
    expect(check('matched [priya] x1.2 -> #1', "'matched […] x1.2 -> #1'")).toBe(undefined)
    expect(check('matched [priya] x1.3 -> #1', "'matched […] x1.2 -> #1'")).toMatch(/expected/)
  })

  it('reads the literal before the prose and compares arrays item by item', () => {
    expect(
      check(
        ['I live in Lisbon now'],
        "[ 'I live in Lisbon now' ]  (the superseded memory is hidden)",
      ),
    ).toBe(undefined)
    expect(check(['a', 'b'], "[ 'a' ]  (prose)")).toMatch(/expected 1 items, got 2/)
    expect(check(1, '1: the relevance floor dropped one')).toBe(undefined)
    expect(parseExpected('the hits, newest first')).toBeUndefined()
  })
})

describe('instrument', () => {
  it('reports the value of the statement each // => ends or follows', () => {
    const [block] = extractBlocks(
      'x.md',
      [
        '```ts node',
        "const a = await f('x') // => 1",
        'g(',
        '  2,',
        ')',
        '// => 2',
        'await h() // a note',
        '// => throws E { code: 1 }',
        '```',
      ].join('\n'),
    )
    const { code, expectations } = instrument(block!)
    expect(code.split('\n')).toEqual([
      "const a = await f('x'); __docShow(0, a)",
      '__docShow(1, g(',
      '  2,',
      '))',
      '// => 2',
      'await __docThrows(2, async () => { await h() })',
      '// => throws E { code: 1 }',
    ])
    expect(expectations).toEqual([
      { id: 0, line: 2, expected: '1' },
      { id: 1, line: 3, expected: '2' },
      { id: 2, line: 7, expected: 'throws E { code: 1 }' },
    ])
  })
})

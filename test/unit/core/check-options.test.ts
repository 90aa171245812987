import { expect, describe as group, it } from 'vitest'
import * as agent from '../../../src/agent/checks.ts'
import { badOption as scopeBadOption } from '../../../src/connect/origin-namespaces.ts'
import {
  badOption,
  integerIn,
  nonEmptyString,
  numberIn,
  oneOf,
  optionNames,
} from '../../../src/core/check-options.ts'
import { InvalidInputError } from '../../../src/core/errors.ts'
import { checkBatchSize, checkEmbedArgs } from '../../../src/embedder/checks.ts'
import { checkSyncOptions, type StartSyncOptions } from '../../../src/sync/sync-options.ts'

/** The error `run` throws, checked to be a `BAD_OPTION` at `field`. */
function failure(run: () => unknown, field: string): InvalidInputError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as InvalidInputError).code).toBe('BAD_OPTION')
    expect((error as InvalidInputError).field).toBe(field)
    return error as InvalidInputError
  }
  throw new Error('expected a throw')
}

/** What the check said, without the field `core/errors.ts` adds to the message around it. */
const said = (error: InvalidInputError) =>
  (error as { detail?: string }).detail ??
  error.message.replace(/^\[[A-Z_]+\] [^:]*: /, '').replace(/ \([^)]*\)$/, '')

// Type tests (`tsc --noEmit` covers test/): an option list must name every key, and no other.
// @ts-expect-error a key of the type left out of the list is a type error
optionNames<{ a?: number; b?: number }>()(['a'])
// @ts-expect-error a name the type lacks is a type error
optionNames<{ a?: number }>()(['a', 'z'])

const SYNC = { url: 'https://couch.example/db', passphrase: 'correct horse' }

group('one option-check dialect', () => {
  it('prints the value the same way in every layer', () => {
    const messages = [
      said(failure(() => integerIn(2.5, 'k', 1, 10), 'k')),
      said(failure(() => agent.integer(2.5, 'k', 1, 10), 'k')),
      said(failure(() => checkBatchSize(2.5, 1), 'batchSize')),
      said(failure(() => checkSyncOptions({ ...SYNC, pollMs: 2.5 } as StartSyncOptions), 'pollMs')),
    ]
    for (const message of messages)
      expect(message).toMatch(/^expected an integer .*, got number 2\.5$/)
  })

  it('names an unknown sync option the way an unknown remember option is named', () => {
    const error = failure(
      () => checkSyncOptions({ ...SYNC, pollMS: 10 } as unknown as StartSyncOptions),
      'pollMS',
    )
    expect(said(error)).toMatch(/^expected one of the options url, auth, .*; got an unknown one$/)
  })

  it('builds ad-hoc checks with the same badOption in core and in the origin scope', () => {
    expect(scopeBadOption).toBe(badOption)
    expect(said(badOption('items', 'an array of items', { a: 1 }))).toBe(
      'expected an array of items, got object',
    )
    expect(said(failure(() => checkSyncOptions({ ...SYNC, url: 'ftp://x' }), 'url'))).toBe(
      "expected an http(s) URL, got 'ftp://x'",
    )
  })

  it('says what was expected and what came for an embed call', () => {
    expect(said(failure(() => checkEmbedArgs('text', { kind: 'query' }), 'texts'))).toBe(
      "expected an array of strings, got 'text'",
    )
    expect(said(failure(() => checkEmbedArgs([], { kind: 'doc' }), 'kind'))).toBe(
      "expected one of 'query', 'passage', got 'doc'",
    )
    expect(said(failure(() => checkEmbedArgs(['a', 3], { kind: 'query' }), 'texts[1]'))).toBe(
      'expected a string, got number 3',
    )
  })

  it('keeps the agent argument order over the core checks', () => {
    expect(agent.oneOf('flag', 'poison', ['reject', 'flag'])).toBe('flag')
    expect(said(failure(() => agent.oneOf('x', 'poison', ['reject']), 'poison'))).toBe(
      "expected one of 'reject', got 'x'",
    )
    expect(agent.number(Number.POSITIVE_INFINITY, 'tokenBudget', 1, Number.POSITIVE_INFINITY)).toBe(
      Number.POSITIVE_INFINITY,
    )
    expect(() => agent.number(Number.NaN, 'minCosine', -1, 1)).toThrow(InvalidInputError)
    expect(said(failure(() => agent.nonEmpty(' ', 'source'), 'source'))).toBe(
      "expected a non-empty string, got ' '",
    )
  })

  it('writes an open upper bound as ≥', () => {
    expect(said(failure(() => integerIn(0, 'n', 1, Number.MAX_SAFE_INTEGER), 'n'))).toBe(
      'expected an integer ≥ 1, got number 0',
    )
    expect(said(failure(() => numberIn(-1, 'w', 0, Number.POSITIVE_INFINITY), 'w'))).toBe(
      'expected a finite number ≥ 0, got number -1',
    )
    expect(nonEmptyString('a', 'f')).toBe('a')
    expect(oneOf('a', ['a'], 'f')).toBe('a')
  })

  it('lists the option names a type has', () => {
    expect(optionNames<{ k?: number; mode?: string }>()(['k', 'mode'])).toEqual(['k', 'mode'])
  })
})

import { describe, expect, it } from 'vitest'
import { type InvalidInputCode, InvalidInputError } from '../../../src/core/errors.ts'
import { utf8Length } from '../../../src/core/text.ts'
import {
  assertOneOf,
  booleanOr,
  checkCharacters,
  describe as describeValue,
  expectArray,
  expectOptions,
  integerIn,
  numberIn,
  oneOf,
  validateAliases,
  validateId,
  validateK,
  validateName,
  validateNames,
  validateQuery,
  validateTag,
  validateTags,
  validateText,
  validateTime,
  validateVector,
} from '../../../src/core/validate.ts'
import { MAX_META_BYTES, validateMeta } from '../../../src/core/validate-meta.ts'
import { TRUST_LEVELS } from '../../../src/core/vocabulary.ts'
import { uniform } from '../../helpers/random.ts'

const seeded = uniform

/** Runs `fn` and returns the InvalidInputError it throws. */
function failure(fn: () => unknown): InvalidInputError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return error as InvalidInputError
  }
  throw new Error('expected an InvalidInputError, got none')
}

function expectFailure(fn: () => unknown, code: InvalidInputCode, field: string, message?: RegExp) {
  const error = failure(fn)
  expect(error.code).toBe(code)
  expect(error.field).toBe(field)
  if (message) expect(error.message).toMatch(message)
}

describe('validateText', () => {
  it.each([
    ['emoji joined by ZWJ', 'family: 👨\u200D👩\u200D👧 and ❤️\u200D🔥'],
    ['Arabic with a right-to-left mark', 'مرحبا\u200F بالعالم'],
    ['Hebrew with a left-to-right mark', 'שלום\u200E ABC'],
    ['CJK', '我喜欢猫。日本語のテキスト'],
    ['accented Latin', 'Zoë déjà vu, Ångström, naïve façade'],
    ['Persian with ZWNJ', 'می\u200Cخواهم'],
    ['Hindi', 'हिंदी भाषा'],
    ['tabs and newlines', 'line one\twith tab\r\nline two'],
    ['a keycap emoji with one variation selector', 'press 1\uFE0F\u20E3'],
  ])('accepts %s', (_, text) => {
    expect(validateText(text, 'text', 8192)).toBe(text.normalize('NFC').replace(/\r\n/g, '\n'))
  })

  it('returns the text as written: indentation, tabs and inner spacing kept, invisible separators and trailing spaces dropped', () => {
    expect(
      validateText('\n\nbuild:\n\tgo  build\u200B ./...  \r\n\n  - name: x \n', 'text', 8192),
    ).toBe('build:\n\tgo  build ./...\n\n  - name: x')
  })

  it('trims a one-line text, which has no indentation to keep', () => {
    expect(validateText('  Priya  is here ', 'text', 8192)).toBe('Priya  is here')
  })

  it('rejects a value that is not a string, saying what it got', () => {
    expectFailure(
      () => validateText(42, 'text', 8192),
      'BAD_OPTION',
      'text',
      /expected a string, got number/,
    )
    expectFailure(
      () => validateText(null, 'items[3].text', 8192),
      'BAD_OPTION',
      'items[3].text',
      /got null/,
    )
  })

  it('rejects empty and whitespace-only text', () => {
    expectFailure(() => validateText('', 'text', 8192), 'EMPTY_TEXT', 'text')
    expectFailure(() => validateText(' \n\t\u200B ', 'text', 8192), 'EMPTY_TEXT', 'text')
  })

  it('rejects text over the byte limit, naming the size and the limit', () => {
    expectFailure(
      () => validateText('é'.repeat(5), 'text', 9),
      'TEXT_TOO_LONG',
      'text',
      /at most 9 bytes.*got 10/,
    )
    expect(validateText('é'.repeat(4), 'text', 8)).toBe('éééé')
  })

  it('measures the limit after normalising', () => {
    expect(validateText(`  ${'a'.repeat(8)}  `, 'text', 8)).toBe('aaaaaaaa')
  })

  it('rejects lone surrogates', () => {
    expectFailure(
      () => validateText('a\uD800b', 'text', 8192),
      'LONE_SURROGATE',
      'text',
      /U\+D800 at index 1/,
    )
    expectFailure(() => validateText('\uDC00', 'text', 8192), 'LONE_SURROGATE', 'text')
    expectFailure(() => validateText('👋'.slice(0, 1), 'text', 8192), 'LONE_SURROGATE', 'text')
  })

  it('rejects control characters other than tab, line feed and carriage return, naming them', () => {
    expectFailure(
      () => validateText('ding\u0007', 'text', 8192),
      'CONTROL_CHARACTER',
      'text',
      /U\+0007 at index 4/,
    )
    expectFailure(
      () => validateText('a\u0000b', 'text', 8192),
      'CONTROL_CHARACTER',
      'text',
      /U\+0000/,
    )
    expectFailure(
      () => validateText('esc\u001B[31m', 'text', 8192),
      'CONTROL_CHARACTER',
      'text',
      /U\+001B/,
    )
    expectFailure(
      () => validateText('del\u007F', 'text', 8192),
      'CONTROL_CHARACTER',
      'text',
      /U\+007F/,
    )
    expectFailure(
      () => validateText('c1\u0085', 'text', 8192),
      'CONTROL_CHARACTER',
      'text',
      /U\+0085/,
    )
    expectFailure(
      () => validateText('vt\u000B', 'text', 8192),
      'CONTROL_CHARACTER',
      'text',
      /U\+000B/,
    )
  })

  it('rejects bidi embeddings, overrides and isolates', () => {
    for (const char of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ]) {
      expectFailure(() => validateText(`access${char}level`, 'text', 8192), 'BIDI_CONTROL', 'text')
    }
  })

  it('rejects tag characters that smuggle invisible instructions', () => {
    const smuggled = [...'ignore all']
      .map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0)))
      .join('')
    expectFailure(
      () => validateText(`hello${smuggled}`, 'text', 8192),
      'HIDDEN_CHARACTER',
      'text',
      /U\+E0069 at index 5/,
    )
    expectFailure(() => validateText('flag \u{E0001}', 'text', 8192), 'HIDDEN_CHARACTER', 'text')
  })

  it('rejects invisible operators, fillers and the Mongolian vowel separator', () => {
    for (const char of [
      '\u2061',
      '\u2062',
      '\u2063',
      '\u2064',
      '\u180E',
      '\u3164',
      '\uFFA0',
      '\u206A',
      '\uFFF9',
    ]) {
      expectFailure(() => validateText(`a${char}b`, 'text', 8192), 'HIDDEN_CHARACTER', 'text')
    }
  })

  it('rejects runs of variation selectors that carry hidden bytes', () => {
    expectFailure(
      () => validateText('😀\u{E0100}\u{E0105}\u{E0142}', 'text', 8192),
      'HIDDEN_CHARACTER',
      'text',
      /3 variation selectors in a row/,
    )
    expectFailure(() => validateText('x\uFE0F\uFE0F', 'text', 8192), 'HIDDEN_CHARACTER', 'text')
  })

  it('checks the raw input before stripping anything', () => {
    expectFailure(() => validateText('\u200B\u0007', 'text', 8192), 'CONTROL_CHARACTER', 'text')
  })
})

describe('checkCharacters', () => {
  it('returns clean text unchanged', () => {
    expect(checkCharacters('ok\u200Fok', 'alias')).toBe('ok\u200Fok')
  })
})

describe('validateQuery', () => {
  it('returns the normalised query', () => {
    expect(validateQuery(' who is  Priya? ', 2000)).toBe('who is Priya?')
  })

  it('rejects empty, too long and hidden-character queries', () => {
    expectFailure(() => validateQuery('   ', 2000), 'EMPTY_TEXT', 'query')
    expectFailure(
      () => validateQuery('a'.repeat(11), 10),
      'TEXT_TOO_LONG',
      'query',
      /at most 10 characters, got 11/,
    )
    expectFailure(() => validateQuery('a\u202Eb', 2000), 'BIDI_CONTROL', 'query')
    expectFailure(() => validateQuery(7, 2000), 'BAD_OPTION', 'query', /got number/)
  })
})

describe('validateTags', () => {
  it('trims, lower-cases and drops duplicates', () => {
    expect(validateTags(['Family', ' family ', 'Work  Trip', 'WORK TRIP'], 'tags', 32, 64)).toEqual(
      ['family', 'work trip'],
    )
  })

  it('treats undefined as no tags', () => {
    expect(validateTags(undefined, 'tags', 32, 64)).toEqual([])
  })

  it('rejects a value that is not an array', () => {
    expectFailure(
      () => validateTags('family', 'tags', 32, 64),
      'BAD_OPTION',
      'tags',
      /array of strings, got 'family'/,
    )
  })

  it('names the index of a tag that is not a string', () => {
    expectFailure(
      () => validateTags(['a', 'b', 3], 'tags', 32, 64),
      'BAD_OPTION',
      'tags[2]',
      /got number/,
    )
  })

  it('rejects empty, too long and hidden-character tags at their index', () => {
    expectFailure(() => validateTags(['ok', '  '], 'tags', 32, 64), 'EMPTY_TEXT', 'tags[1]')
    expectFailure(
      () => validateTags(['x'.repeat(65)], 'tags', 32, 64),
      'TEXT_TOO_LONG',
      'tags[0]',
      /at most 64 characters, got 65/,
    )
    expectFailure(
      () => validateTags(['ok', 'a\u0007'], 'tags', 32, 64),
      'CONTROL_CHARACTER',
      'tags[1]',
    )
    expectFailure(
      () => validateTags(['a\u202Eb'], 'patch.tags', 32, 64),
      'BIDI_CONTROL',
      'patch.tags[0]',
    )
    expectFailure(() => validateTags(['a\u{E0041}'], 'tags', 32, 64), 'HIDDEN_CHARACTER', 'tags[0]')
  })

  it('counts characters, not UTF-16 units, against the length limit', () => {
    expect(validateTags(['👋👋'], 'tags', 32, 2)).toEqual(['👋👋'])
  })

  it('rejects more distinct tags than allowed', () => {
    expectFailure(
      () => validateTags(['a', 'b', 'c'], 'tags', 2, 64),
      'BAD_OPTION',
      'tags',
      /at most 2 tags, got 3/,
    )
    expect(validateTags(['a', 'A', 'b'], 'tags', 2, 64)).toEqual(['a', 'b'])
  })
})

describe('validateAliases', () => {
  it('keeps case and drops duplicates that differ only in case', () => {
    expect(validateAliases(['FH-2291', 'fh-2291', ' Pri '], 'aliases', 32, 256)).toEqual([
      'FH-2291',
      'Pri',
    ])
  })

  it('rejects too many aliases', () => {
    expectFailure(
      () => validateAliases(['a', 'b'], 'aliases', 1, 256),
      'BAD_OPTION',
      'aliases',
      /at most 1 aliases/,
    )
  })
})

describe('validateVector', () => {
  it('returns a unit-length copy of a vector that is not unit length', () => {
    const vector = validateVector([3, 4], 2)
    expect(vector).toBeInstanceOf(Float32Array)
    expect([...vector]).toEqual([Math.fround(0.6), Math.fround(0.8)])
  })

  it('copies a unit vector unchanged', () => {
    const input = new Float32Array([0.6, 0.8])
    const output = validateVector(input, 2)
    expect(output).not.toBe(input)
    expect(output).toEqual(input)
  })

  it('leaves a vector within 1e-3 of unit length as it is', () => {
    const input = new Float32Array([1.0005, 0])
    expect(validateVector(input, 2)[0]).toBe(Math.fround(1.0005))
  })

  it('rejects the wrong dimension', () => {
    expectFailure(
      () => validateVector(new Float32Array(12).fill(1), 384),
      'BAD_VECTOR',
      'vector',
      /expected 384 dimensions, got 12/,
    )
  })

  it('rejects NaN and infinities, naming the index', () => {
    expectFailure(
      () => validateVector([1, Number.NaN, 0], 3),
      'BAD_VECTOR',
      'vector',
      /got NaN at index 1/,
    )
    expectFailure(
      () => validateVector([1, 0, Number.POSITIVE_INFINITY], 3, 'items[0].vector'),
      'BAD_VECTOR',
      'items[0].vector',
      /Infinity at index 2/,
    )
    expectFailure(() => validateVector([1e39, 0], 2), 'BAD_VECTOR', 'vector', /Infinity at index 0/)
  })

  it('rejects a zero vector', () => {
    expectFailure(() => validateVector(new Float32Array(4), 4), 'BAD_VECTOR', 'vector', /norm 0/)
  })

  it('rejects what is not a Float32Array or an array of numbers', () => {
    expectFailure(
      () => validateVector(new Float64Array(2), 2),
      'BAD_VECTOR',
      'vector',
      /got Float64Array/,
    )
    expectFailure(() => validateVector(['1', '0'], 2), 'BAD_VECTOR', 'vector', /got array/)
    expectFailure(() => validateVector(undefined, 2), 'BAD_VECTOR', 'vector', /got undefined/)
  })
})

describe('validateId', () => {
  it('accepts a ULID and any non-empty string up to 64 characters', () => {
    expect(validateId('01J8Z3V5Q2W4E6R8T0Y2U4I6O8')).toBe('01J8Z3V5Q2W4E6R8T0Y2U4I6O8')
    expect(validateId('x'.repeat(64))).toHaveLength(64)
  })

  it('rejects non-strings, empty strings and long strings', () => {
    expectFailure(() => validateId(12), 'BAD_ID', 'id', /expected a string, got number/)
    expectFailure(() => validateId(''), 'BAD_ID', 'id')
    expectFailure(() => validateId('x'.repeat(65), 'ids[1]'), 'BAD_ID', 'ids[1]', /got 65/)
  })

  it('rejects the characters text rejects', () => {
    expectFailure(() => validateId('01\u0000'), 'CONTROL_CHARACTER', 'id')
    expectFailure(() => validateId('01\uD800', 'cursor'), 'LONE_SURROGATE', 'cursor')
    expectFailure(() => validateId('01\u202E'), 'BIDI_CONTROL', 'id')
  })
})

describe('validateK', () => {
  it('accepts an integer from 1 to the maximum', () => {
    expect(validateK(1, 100)).toBe(1)
    expect(validateK(100, 100)).toBe(100)
  })

  it.each([0, -1, 101, 2.5, Number.NaN, '5', undefined])('rejects %s', (k) => {
    expectFailure(() => validateK(k, 100), 'BAD_OPTION', 'k', /expected an integer from 1 to 100/)
  })
})

describe('assertOneOf', () => {
  it('passes a listed value', () => {
    expect(() => assertOneOf('high', ['low', 'medium', 'high'], 'confidence')).not.toThrow()
    expect(oneOf('low', ['low', 'medium', 'high'], 'confidence')).toBe('low')
  })

  it('rejects anything else, listing what is allowed', () => {
    expectFailure(
      () => assertOneOf('maybe', ['low', 'medium', 'high'], 'confidence'),
      'BAD_OPTION',
      'confidence',
      /expected one of 'low', 'medium', 'high', got 'maybe'/,
    )
    expectFailure(() => oneOf(3, ['a'], 'mode'), 'BAD_OPTION', 'mode', /got number 3/)
  })
})

describe('errors', () => {
  it('carry the code and field as fields, and the field after the message, for a log line', () => {
    const error = failure(() => validateText('', 'items[0].text', 10))
    expect(error).toMatchObject({ code: 'EMPTY_TEXT', field: 'items[0].text' })
    expect(error.message).toMatch(/^expected .* \(items\[0\]\.text\)$/)
    expect(error.message).not.toMatch(/\[EMPTY_TEXT\]/)
  })
})

describe('describe', () => {
  it('renders each kind of value one way', () => {
    expect(
      [
        'maybe',
        3,
        true,
        10n,
        null,
        undefined,
        [1],
        {},
        new Map(),
        new Float64Array(1),
        () => 1,
        Object.create(null),
      ].map(describeValue),
    ).toEqual([
      "'maybe'",
      'number 3',
      'boolean true',
      'bigint 10n',
      'null',
      'undefined',
      'array',
      'object',
      'Map',
      'Float64Array',
      'function',
      'object',
    ])
  })

  it('cuts long strings at 40 characters without splitting a surrogate pair', () => {
    expect(describeValue('a'.repeat(50))).toBe(`'${'a'.repeat(40)}…'`)
    expect(describeValue('👋'.repeat(41))).toBe(`'${'👋'.repeat(40)}…'`)
  })

  it('writes controls, bidi and invisible characters as escapes, so a message hides nothing', () => {
    expect(describeValue('user\u202E\u2066evil\u0000\u{E0041}\uD800')).toBe(
      "'user\\u{202E}\\u{2066}evil\\u{0}\\u{E0041}\\u{D800}'",
    )
  })
})

describe('integerIn, numberIn, booleanOr', () => {
  it('accepts the bounds and rejects what is outside, fractional or not a number', () => {
    expect(integerIn(1, 'limit', 1, 1000)).toBe(1)
    expect(integerIn(1000, 'limit', 1, 1000)).toBe(1000)
    for (const bad of [0, 1001, 2.5, Number.NaN, '5', null]) {
      expectFailure(
        () => integerIn(bad, 'limit', 1, 1000),
        'BAD_OPTION',
        'limit',
        /integer from 1 to 1000/,
      )
    }
    expectFailure(() => integerIn('5', 'limit', 1, 9), 'BAD_OPTION', 'limit', /got '5'/)
  })

  it('takes finite numbers only, with an open upper bound written as ≥', () => {
    expect(numberIn(0, 'w', 0, Number.POSITIVE_INFINITY)).toBe(0)
    expect(numberIn(0.5, 'w', 0, 1)).toBe(0.5)
    expectFailure(
      () => numberIn(Number.POSITIVE_INFINITY, 'w', 0, Number.POSITIVE_INFINITY),
      'BAD_OPTION',
      'w',
      /finite number ≥ 0/,
    )
    expectFailure(() => numberIn(1.5, 'w', 0, 1), 'BAD_OPTION', 'w', /from 0 to 1, got number 1.5/)
  })

  it('takes true, false or nothing for a boolean, never a truthy string', () => {
    expect(booleanOr(undefined, true, 'explain')).toBe(true)
    expect(booleanOr(false, true, 'explain')).toBe(false)
    for (const bad of ['false', 0, 1, null, 'no']) {
      expectFailure(
        () => booleanOr(bad, true, 'explain'),
        'BAD_OPTION',
        'explain',
        /expected true or false/,
      )
    }
  })
})

describe('expectOptions and expectArray', () => {
  it('treats undefined as no options unless they are required', () => {
    expect(expectOptions(undefined, 'options', ['a'], '')).toEqual({})
    expectFailure(
      () => expectOptions(undefined, 'patch', ['a'], 'patch.', true),
      'BAD_OPTION',
      'patch',
    )
  })

  it('rejects what is not an object, and names an unknown key with its prefix', () => {
    expectFailure(
      () => expectOptions([], 'options', ['a'], ''),
      'BAD_OPTION',
      'options',
      /got array/,
    )
    expectFailure(
      () => expectOptions(null, 'options', ['a'], ''),
      'BAD_OPTION',
      'options',
      /got null/,
    )
    expectFailure(
      () => expectOptions({ a: 1, b: 2 }, 'items[0]', ['a'], 'items[0].'),
      'BAD_OPTION',
      'items[0].b',
      /expected one of the options a; got an unknown one/,
    )
  })

  it('rejects a hole in an array, naming its index', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
    expectFailure(() => expectArray([1, , 3], 'items'), 'BAD_OPTION', 'items[1]', /hole/)
    expect(expectArray([1, undefined], 'items')).toEqual([1, undefined])
  })
})

describe('oneOf with a vocabulary list', () => {
  it('lists the allowed levels in the message', () => {
    expect(oneOf('trusted', TRUST_LEVELS, 'trust')).toBe('trusted')
    expectFailure(
      () => oneOf('root', TRUST_LEVELS, 'trust'),
      'BAD_OPTION',
      'trust',
      /expected one of 'trusted', 'unverified', 'untrusted', got 'root'/,
    )
  })
})

describe('validateName and validateNames', () => {
  it('normalises like a tag but keeps case', () => {
    expect(validateName(' Tenant\u200B  Alice\n', 'namespace')).toBe('Tenant Alice')
    expect(validateName('https://example.com/a?b=c', 'source')).toBe('https://example.com/a?b=c')
  })

  it('rejects the characters text rejects, naming the field', () => {
    expectFailure(() => validateName('user\u202E\u2066evil', 'source'), 'BIDI_CONTROL', 'source')
    expectFailure(() => validateName('fact\u0000\u0007', 'type'), 'CONTROL_CHARACTER', 'type')
    expectFailure(() => validateName('ns\u{E0041}', 'namespace'), 'HIDDEN_CHARACTER', 'namespace')
    expectFailure(() => validateName('x\uDC00', 'source'), 'LONE_SURROGATE', 'source')
  })

  it('rejects empty, too long and non-string names as BAD_OPTION', () => {
    expectFailure(
      () => validateName(' \u200B ', 'namespace'),
      'BAD_OPTION',
      'namespace',
      /whitespace/,
    )
    expectFailure(
      () => validateName('x'.repeat(257), 'type'),
      'BAD_OPTION',
      'type',
      /257 characters/,
    )
    expect(validateName('👋'.repeat(256), 'type')).toHaveLength(512)
    expectFailure(() => validateName(null, 'namespace'), 'BAD_OPTION', 'namespace', /got null/)
  })

  it('checks each name of a list at its index and drops exact duplicates', () => {
    expect(validateNames(['fact', ' fact', 'Fact'], 'types', 64)).toEqual(['fact', 'Fact'])
    expectFailure(() => validateNames(['fact', 3], 'types', 64), 'BAD_OPTION', 'types[1]')
    expectFailure(() => validateNames('fact', 'types', 64), 'BAD_OPTION', 'types')
    expectFailure(() => validateNames(['a', 'b'], 'types', 1), 'BAD_OPTION', 'types', /at most 1/)
  })
})

describe('validateTag', () => {
  it('shapes one tag as validateTags does', () => {
    expect(validateTag(' Work  Trip ', 'tag', 64)).toBe('work trip')
    expectFailure(() => validateTag(5, 'tag', 64), 'BAD_OPTION', 'tag', /got number 5/)
  })
})

describe('validateTime', () => {
  it('takes epoch milliseconds a Date can hold', () => {
    expect(validateTime(0, 'expiresAt')).toBe(0)
    expect(validateTime(8.64e15, 'expiresAt')).toBe(8.64e15)
    for (const bad of [8.64e15 + 1, Number.NaN, Number.POSITIVE_INFINITY, '2026-01-01', null]) {
      expectFailure(() => validateTime(bad, 'expiresAt'), 'BAD_OPTION', 'expiresAt')
    }
  })
})

describe('validateMeta', () => {
  it('returns an equal copy of JSON data, not the object itself', () => {
    const meta = { a: [1, 'two', { three: null }], b: true, c: -1.5, 'd e': {} }
    const copy = validateMeta(meta)
    expect(copy).toEqual(meta)
    expect(copy).not.toBe(meta)
    expect(copy.a).not.toBe(meta.a)
  })

  it('keeps a __proto__ key from JSON.parse as a key', () => {
    const copy = validateMeta(JSON.parse('{"__proto__":{"polluted":true}}'))
    expect(Object.keys(copy)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([
    ['a Date', { when: new Date(0) }, 'meta.when', /got Date/],
    ['a Map', { m: new Map() }, 'meta.m', /got Map/],
    ['a Set', { s: new Set() }, 'meta.s', /got Set/],
    ['NaN', { n: Number.NaN }, 'meta.n', /finite number, got NaN/],
    ['-Infinity', { n: [Number.NEGATIVE_INFINITY] }, 'meta.n[0]', /got -Infinity/],
    ['a BigInt', { n: 1n }, 'meta.n', /got bigint 1n/],
    ['undefined', { u: undefined }, 'meta.u', /got undefined/],
    ['a function', { f: () => 1 }, 'meta.f', /got function/],
    ['a symbol', { s: Symbol('x') }, 'meta.s', /got symbol/],
    ['a symbol key', { [Symbol('k')]: 1 }, 'meta', /symbol key/],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
    ['a hole', { list: [1, , 3] }, 'meta.list[1]', /hole/],
    ['a class instance', { p: new (class Point {})() }, 'meta.p', /got Point/],
    ['a typed array', { v: new Float32Array(2) }, 'meta.v', /got Float32Array/],
  ])('rejects %s with BAD_META at its path', (_label, meta, field, message) => {
    expectFailure(() => validateMeta(meta), 'BAD_META', field, message)
  })

  it('rejects a cycle at the reference that closes it, but not an object shared twice', () => {
    const loop: Record<string, unknown> = {}
    loop.a = { b: [loop] }
    expectFailure(() => validateMeta(loop), 'BAD_META', 'meta.a.b[0]', /cycle/)
    const shared = { x: 1 }
    expect(validateMeta({ one: shared, two: shared })).toEqual({ one: { x: 1 }, two: { x: 1 } })
  })

  it('allows 8 levels of nesting and rejects the 9th', () => {
    const nest = (levels: number): Record<string, unknown> =>
      levels === 1 ? {} : { n: nest(levels - 1) }
    expect(() => validateMeta(nest(8))).not.toThrow()
    expectFailure(() => validateMeta(nest(9)), 'META_TOO_LARGE', 'meta.n.n.n.n.n.n.n.n', /8 levels/)
  })

  it('measures the size as UTF-8 bytes of JSON and refuses a huge value without serialising it', () => {
    const frame = JSON.stringify({ s: '' }).length
    expect(() => validateMeta({ s: 'x'.repeat(MAX_META_BYTES - frame) })).not.toThrow()
    expectFailure(
      () => validateMeta({ s: 'x'.repeat(MAX_META_BYTES - frame + 1) }),
      'META_TOO_LARGE',
      'meta',
      /at most 16384 bytes as JSON, got more/,
    )
    expectFailure(
      () => validateMeta({ s: 'é'.repeat(MAX_META_BYTES / 2) }),
      'META_TOO_LARGE',
      'meta',
    )
    const huge = { rows: new Array(100_000).fill('x'.repeat(1000)) }
    expectFailure(() => validateMeta(huge), 'META_TOO_LARGE', 'meta', /got more/)
  })

  it('counts exactly the bytes JSON.stringify writes, on seeded random data at the limit', () => {
    const random = seeded(20_261_201)
    const pieces = ['a', 'é', '"', '\\', '\n', '\t', '👋', '中', ' ', 'Z']
    const text = () =>
      Array.from(
        { length: Math.floor(random() * 12) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('')
    const value = (depth: number): unknown => {
      const pick = random()
      if (depth > 3 || pick < 0.3) return text()
      if (pick < 0.4) return Math.round((random() - 0.5) * 1e6) / 100
      if (pick < 0.45) return random() < 0.5
      if (pick < 0.5) return null
      if (pick < 0.75)
        return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1))
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [text(), value(depth + 1)]),
      )
    }
    for (let run = 0; run < 200; run++) {
      const base = { v: value(0), pad: '' }
      const size = utf8Length(JSON.stringify(base))
      const fits = { ...base, pad: 'x'.repeat(MAX_META_BYTES - size) }
      expect(utf8Length(JSON.stringify(fits))).toBe(MAX_META_BYTES)
      expect(validateMeta(fits)).toEqual(fits)
      const over = { ...base, pad: 'x'.repeat(MAX_META_BYTES - size + 1) }
      expectFailure(() => validateMeta(over), 'META_TOO_LARGE', 'meta')
    }
  })

  it('checks strings and keys with the text rules, naming the path', () => {
    expectFailure(() => validateMeta({ who: ['Ana\u0007'] }), 'CONTROL_CHARACTER', 'meta.who[0]')
    expectFailure(
      () => validateMeta({ 'two words': '\u202E' }),
      'BIDI_CONTROL',
      'meta["two words"]',
    )
    expectFailure(
      () => validateMeta({ 'k\u{E0041}': 1 }),
      'HIDDEN_CHARACTER',
      'meta["k\\u{E0041}"]',
    )
    expectFailure(
      () => validateMeta({ 'a: b': '\u0000' }),
      'CONTROL_CHARACTER',
      'meta["a:\\u0020b"]',
    )
  })

  it('rejects a meta that is not a plain object as BAD_OPTION, at the given field', () => {
    for (const bad of [null, [], 'x', new Date(0), new Map()]) {
      expectFailure(() => validateMeta(bad, 'patch.meta'), 'BAD_OPTION', 'patch.meta')
    }
  })
})

import { describe, expect, it } from 'vitest'
import { type InvalidInputCode, InvalidInputError } from '../../../src/core/errors.ts'
import {
  assertOneOf,
  checkCharacters,
  oneOf,
  validateAliases,
  validateId,
  validateK,
  validateQuery,
  validateTags,
  validateText,
  validateVector,
} from '../../../src/core/validate.ts'

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
    expect(validateText(text, 'text', 8192)).toBe(
      text.normalize('NFC').replace(/\r\n/g, '\n').replace(/\t/g, ' '),
    )
  })

  it('returns the normalised text', () => {
    expect(validateText('  Priya\u200B  is   here \n\n\n\n ok ', 'text', 8192)).toBe(
      'Priya is here\n\nok',
    )
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
      /array of strings, got string/,
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
    expectFailure(() => oneOf(3, ['a'], 'mode'), 'BAD_OPTION', 'mode', /got 3/)
  })
})

describe('errors', () => {
  it('carry the code and field in the message, for revival across a worker', () => {
    const error = failure(() => validateText('', 'items[0].text', 10))
    expect(error.message).toMatch(/^\[EMPTY_TEXT\] items\[0\]\.text: expected/)
  })
})

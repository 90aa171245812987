/**
 * The bad-input matrix: every entry point, every kind of wrong input. Each gets a typed error
 * with a stable code (and the field at fault), and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InvalidInputCode } from '../../../src/core/errors.ts'
import {
  ImportFormatError,
  InvalidInputError,
  MemoryNotFoundError,
} from '../../../src/core/errors.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { freshIdb, openTestEngine } from '../../helpers/engine.ts'

type Call = (e: MemoryEngine, id: string) => Promise<unknown>
type Expected =
  | { code: InvalidInputCode; field?: string }
  | { name: 'ImportFormatError'; line: number; match?: RegExp }
  | { name: 'MemoryNotFoundError' }

const DIMS = 384
const unit = () => {
  const v = new Float32Array(DIMS)
  v[0] = 1
  return v
}
const withValue = (i: number, value: number) => {
  const v = unit()
  v[i] = value
  return v
}
const text =
  (t: string): Call =>
  (e) =>
    e.remember(t)

const REMEMBER: [string, Call, Expected][] = [
  ['empty text', text(''), { code: 'EMPTY_TEXT', field: 'text' }],
  ['whitespace-only text', text(' \n\t '), { code: 'EMPTY_TEXT', field: 'text' }],
  ['text of only zero-width spaces', text('\u200B\u2060\uFEFF'), { code: 'EMPTY_TEXT' }],
  ['oversize text', text('x'.repeat(8193)), { code: 'TEXT_TOO_LONG', field: 'text' }],
  ['oversize text in UTF-8 bytes', text('é'.repeat(4097)), { code: 'TEXT_TOO_LONG' }],
  ['a lone high surrogate', text('bad \uD800 text'), { code: 'LONE_SURROGATE', field: 'text' }],
  ['a lone low surrogate', text('bad \uDC00 text'), { code: 'LONE_SURROGATE' }],
  ['a NUL character', text('nul \u0000 here'), { code: 'CONTROL_CHARACTER', field: 'text' }],
  ['a bell character', text('bell \u0007 here'), { code: 'CONTROL_CHARACTER' }],
  ['an ANSI escape', text('\u001B[31mred\u001B[0m'), { code: 'CONTROL_CHARACTER' }],
  ['DEL', text('del \u007F here'), { code: 'CONTROL_CHARACTER' }],
  ['a C1 control', text('next \u0085 line'), { code: 'CONTROL_CHARACTER' }],
  ['a right-to-left override', text('user \u202Etxt.exe'), { code: 'BIDI_CONTROL', field: 'text' }],
  ['a left-to-right embedding', text('a \u202A b'), { code: 'BIDI_CONTROL' }],
  ['a bidi isolate', text('a \u2066b\u2069 c'), { code: 'BIDI_CONTROL' }],
  ['Unicode tag characters', text('hi \u{E0049}\u{E0047}\u{E004E}'), { code: 'HIDDEN_CHARACTER' }],
  ['a language tag', text('hi \u{E0001}'), { code: 'HIDDEN_CHARACTER', field: 'text' }],
  ['an invisible operator', text('a\u2062b'), { code: 'HIDDEN_CHARACTER' }],
  [
    'a run of variation selectors',
    text('ok \u{1F600}\uFE0F\uFE0F\uFE0F'),
    { code: 'HIDDEN_CHARACTER' },
  ],
  ['a number for text', (e) => e.remember(42 as never), { code: 'BAD_OPTION', field: 'text' }],
  ['null for text', (e) => e.remember(null as never), { code: 'BAD_OPTION', field: 'text' }],
  [
    'options that are a string',
    (e) => e.remember('ok', 'fact' as never),
    { code: 'BAD_OPTION', field: 'options' },
  ],
  [
    'a numeric namespace',
    (e) => e.remember('ok', { namespace: 42 as never }),
    { code: 'BAD_OPTION', field: 'namespace' },
  ],
  [
    'an empty namespace',
    (e) => e.remember('ok', { namespace: '' }),
    { code: 'BAD_OPTION', field: 'namespace' },
  ],
  [
    'an object for type',
    (e) => e.remember('ok', { type: {} as never }),
    { code: 'BAD_OPTION', field: 'type' },
  ],
  [
    'a string for tags',
    (e) => e.remember('ok', { tags: 'a' as never }),
    { code: 'BAD_OPTION', field: 'tags' },
  ],
  [
    'a non-string tag',
    (e) => e.remember('ok', { tags: ['a', 3 as never] }),
    { code: 'BAD_OPTION', field: 'tags[1]' },
  ],
  [
    '33 tags',
    (e) => e.remember('ok', { tags: [...Array(33).keys()].map((i) => `t${i}`) }),
    { code: 'BAD_OPTION', field: 'tags' },
  ],
  [
    'a 65-character tag',
    (e) => e.remember('ok', { tags: ['t'.repeat(65)] }),
    { code: 'TEXT_TOO_LONG', field: 'tags[0]' },
  ],
  [
    'a tag with a bidi override',
    (e) => e.remember('ok', { tags: ['\u202Egat'] }),
    { code: 'BIDI_CONTROL', field: 'tags[0]' },
  ],
  [
    'an empty alias',
    (e) => e.remember('ok', { aliases: [' '] }),
    { code: 'EMPTY_TEXT', field: 'aliases[0]' },
  ],
  [
    'an alias with a tag character',
    (e) => e.remember('ok', { aliases: ['x\u{E0041}'] }),
    { code: 'HIDDEN_CHARACTER', field: 'aliases[0]' },
  ],
  [
    'an unknown trust level',
    (e) => e.remember('ok', { trust: 'super' as never }),
    { code: 'BAD_OPTION', field: 'trust' },
  ],
  [
    'an unknown confidence',
    (e) => e.remember('ok', { confidence: 'very' as never }),
    { code: 'BAD_OPTION', field: 'confidence' },
  ],
  [
    'an unknown poison policy',
    (e) => e.remember('ok', { poison: 'maybe' as never }),
    { code: 'BAD_OPTION', field: 'poison' },
  ],
  [
    'a string for expiresAt',
    (e) => e.remember('ok', { expiresAt: 'tomorrow' as never }),
    { code: 'BAD_OPTION', field: 'expiresAt' },
  ],
  [
    'an infinite expiresAt',
    (e) => e.remember('ok', { expiresAt: Number.POSITIVE_INFINITY }),
    { code: 'BAD_OPTION', field: 'expiresAt' },
  ],
  [
    'an array for meta',
    (e) => e.remember('ok', { meta: [] as never }),
    { code: 'BAD_OPTION', field: 'meta' },
  ],
  [
    'an empty source',
    (e) => e.remember('ok', { source: '' }),
    { code: 'BAD_OPTION', field: 'source' },
  ],
  [
    'a 300-character source',
    (e) => e.remember('ok', { source: 's'.repeat(300) }),
    { code: 'BAD_OPTION', field: 'source' },
  ],
  [
    'a wrong-dimension vector',
    (e) => e.remember('ok', { vector: new Float32Array(3) }),
    { code: 'BAD_VECTOR', field: 'vector' },
  ],
  [
    'a NaN vector',
    (e) => e.remember('ok', { vector: withValue(5, Number.NaN) }),
    { code: 'BAD_VECTOR', field: 'vector' },
  ],
  [
    'an Infinity vector',
    (e) => e.remember('ok', { vector: withValue(5, Number.POSITIVE_INFINITY) }),
    { code: 'BAD_VECTOR' },
  ],
  [
    'a -Infinity vector',
    (e) => e.remember('ok', { vector: withValue(9, Number.NEGATIVE_INFINITY) }),
    { code: 'BAD_VECTOR' },
  ],
  [
    'a zero vector',
    (e) => e.remember('ok', { vector: new Float32Array(DIMS) }),
    { code: 'BAD_VECTOR', field: 'vector' },
  ],
  [
    'a string for a vector',
    (e) => e.remember('ok', { vector: 'abc' as never }),
    { code: 'BAD_VECTOR' },
  ],
  [
    'an array with a string in it for a vector',
    (e) => e.remember('ok', { vector: [1, 'a'] as never }),
    { code: 'BAD_VECTOR' },
  ],
]

const MANY: [string, Call, Expected][] = [
  [
    'a string for items',
    (e) => e.rememberMany('x' as never),
    { code: 'BAD_OPTION', field: 'items' },
  ],
  [
    'an object for items',
    (e) => e.rememberMany({} as never),
    { code: 'BAD_OPTION', field: 'items' },
  ],
  [
    'a null item',
    (e) => e.rememberMany([{ text: 'fine' }, null as never]),
    { code: 'BAD_OPTION', field: 'items[1]' },
  ],
  [
    'an empty item after a good one',
    (e) => e.rememberMany([{ text: 'fine' }, { text: '' }]),
    { code: 'EMPTY_TEXT', field: 'items[1].text' },
  ],
  [
    'a bidi override in the third item',
    (e) => e.rememberMany([{ text: 'a' }, { text: 'b' }, { text: '\u202Ec' }]),
    { code: 'BIDI_CONTROL', field: 'items[2].text' },
  ],
  [
    'a bad vector in an item',
    (e) => e.rememberMany([{ text: 'ok', vector: new Float32Array(2) }]),
    { code: 'BAD_VECTOR', field: 'items[0].vector' },
  ],
  [
    'a bad tag in an item',
    (e) => e.rememberMany([{ text: 'ok' }, { text: 'ok 2', tags: [7 as never] }]),
    { code: 'BAD_OPTION', field: 'items[1].tags[0]' },
  ],
]

const UPDATE_FORGET: [string, Call, Expected][] = [
  [
    'an update of an unknown id',
    (e) => e.update('01NOPE', { tags: ['x'] }),
    { name: 'MemoryNotFoundError' },
  ],
  ['a forget of an unknown id', (e) => e.forget('01NOPE'), { name: 'MemoryNotFoundError' }],
  ['a numeric id', (e) => e.update(42 as never, {}), { code: 'BAD_ID', field: 'id' }],
  ['an empty id', (e) => e.forget(''), { code: 'BAD_ID', field: 'id' }],
  ['a 65-character id', (e) => e.forget('x'.repeat(65)), { code: 'BAD_ID', field: 'id' }],
  ['a null patch', (e, id) => e.update(id, null as never), { code: 'BAD_OPTION', field: 'patch' }],
  ['an array patch', (e, id) => e.update(id, [] as never), { code: 'BAD_OPTION', field: 'patch' }],
  [
    'an empty patch text',
    (e, id) => e.update(id, { text: '' }),
    { code: 'EMPTY_TEXT', field: 'patch.text' },
  ],
  [
    'a patch text with a bidi override',
    (e, id) => e.update(id, { text: 'x \u202E y' }),
    { code: 'BIDI_CONTROL', field: 'patch.text' },
  ],
  [
    'a patch text with tag characters',
    (e, id) => e.update(id, { text: 'x \u{E0041}' }),
    { code: 'HIDDEN_CHARACTER' },
  ],
  [
    'a patch with an unknown trust',
    (e, id) => e.update(id, { trust: 'root' as never }),
    { code: 'BAD_OPTION', field: 'patch.trust' },
  ],
  [
    'a patch with a bad expiresAt',
    (e, id) => e.update(id, { expiresAt: Number.NaN }),
    { code: 'BAD_OPTION', field: 'patch.expiresAt' },
  ],
  [
    'a patch with bad tags',
    (e, id) => e.update(id, { tags: 'a' as never }),
    { code: 'BAD_OPTION', field: 'patch.tags' },
  ],
  ['a get with a bad id', (e) => e.get(7 as never), { code: 'BAD_ID', field: 'id' }],
]

const READS: [string, Call, Expected][] = [
  ['k = 0', (e) => e.recall('ok', { k: 0 }), { code: 'BAD_OPTION', field: 'k' }],
  ['k = -1', (e) => e.recall('ok', { k: -1 }), { code: 'BAD_OPTION', field: 'k' }],
  ['k = 1.5', (e) => e.recall('ok', { k: 1.5 }), { code: 'BAD_OPTION', field: 'k' }],
  ['an absurd k', (e) => e.recall('ok', { k: 1e9 }), { code: 'BAD_OPTION', field: 'k' }],
  ['k = NaN', (e) => e.recall('ok', { k: Number.NaN }), { code: 'BAD_OPTION', field: 'k' }],
  ['a string k', (e) => e.recall('ok', { k: '5' as never }), { code: 'BAD_OPTION', field: 'k' }],
  [
    'an unknown mode',
    (e) => e.recall('ok', { mode: 'psychic' as never }),
    { code: 'BAD_OPTION', field: 'mode' },
  ],
  [
    'a numeric namespace',
    (e) => e.recall('ok', { namespace: 3 as never }),
    { code: 'BAD_OPTION', field: 'namespace' },
  ],
  [
    'an unknown minTrust',
    (e) => e.recall('ok', { minTrust: 'maybe' as never }),
    { code: 'BAD_OPTION', field: 'minTrust' },
  ],
  [
    'an unknown list weight',
    (e) => e.recall('ok', { weights: { bogus: 1 } as never }),
    { code: 'BAD_OPTION', field: 'weights.bogus' },
  ],
  [
    'a negative weight',
    (e) => e.recall('ok', { weights: { keyword: -1 } }),
    { code: 'BAD_OPTION', field: 'weights.keyword' },
  ],
  [
    'a string for types',
    (e) => e.recall('ok', { types: 'fact' as never }),
    { code: 'BAD_OPTION', field: 'types' },
  ],
  [
    'a non-string tag filter',
    (e) => e.recall('ok', { tags: [3 as never] }),
    { code: 'BAD_OPTION', field: 'tags[0]' },
  ],
  ['an empty query', (e) => e.recall(''), { code: 'EMPTY_TEXT', field: 'query' }],
  ['a numeric query', (e) => e.recall(42 as never), { code: 'BAD_OPTION', field: 'query' }],
  [
    'an oversize query',
    (e) => e.recall('q'.repeat(2001)),
    { code: 'TEXT_TOO_LONG', field: 'query' },
  ],
  [
    'string recall options',
    (e) => e.recall('ok', 'x' as never),
    { code: 'BAD_OPTION', field: 'options' },
  ],
  ['a list limit of 0', (e) => e.list({ limit: 0 }), { code: 'BAD_OPTION', field: 'limit' }],
  ['a list limit of 1001', (e) => e.list({ limit: 1001 }), { code: 'BAD_OPTION', field: 'limit' }],
  [
    'a numeric list cursor',
    (e) => e.list({ cursor: 5 as never }),
    { code: 'BAD_ID', field: 'cursor' },
  ],
  ['string count filter', (e) => e.count('x' as never), { code: 'BAD_OPTION', field: 'filter' }],
  [
    'a recall-log limit of 0',
    (e) => e.recallLog({ limit: 0 }),
    { code: 'BAD_OPTION', field: 'limit' },
  ],
]

const HEADER = JSON.stringify({
  format: 'engram',
  version: 1,
  model: 'engram/ngram-hash',
  dims: DIMS,
})
const good = '{"text":"a fine first line"}'
const IMPORT: [string, Call, Expected][] = [
  [
    'import of a non-string',
    (e) => e.importMemories(42 as never),
    { name: 'ImportFormatError', line: 0 },
  ],
  [
    'a line that is not JSON',
    (e) => e.importMemories(`${good}\n{"text": "unclosed`),
    { name: 'ImportFormatError', line: 2, match: /not valid JSON/ },
  ],
  [
    'a line that is an array',
    (e) => e.importMemories(`${good}\n["text"]`),
    { name: 'ImportFormatError', line: 2 },
  ],
  [
    'a line that is a number',
    (e) => e.importMemories(`${good}\n\n7`),
    { name: 'ImportFormatError', line: 3 },
  ],
  [
    'a line without text',
    (e) => e.importMemories(`${good}\n{"tags":["x"]}`),
    { name: 'ImportFormatError', line: 2, match: /BAD_OPTION/ },
  ],
  [
    'a line whose text has a bidi override',
    (e) => e.importMemories(`${good}\n{"text":"a \\u202E b"}`),
    { name: 'ImportFormatError', line: 2, match: /BIDI_CONTROL/ },
  ],
  [
    'a line with an unknown trust',
    (e) => e.importMemories(`${good}\n{"text":"x","trust":"root"}`),
    { name: 'ImportFormatError', line: 2, match: /trust/ },
  ],
  [
    'a header after data',
    (e) => e.importMemories(`${good}\n${HEADER}`),
    { name: 'ImportFormatError', line: 2, match: /header/ },
  ],
  [
    'an unsupported export version',
    (e) => e.importMemories(`{"format":"engram","version":99}\n${good}`),
    { name: 'ImportFormatError', line: 1, match: /version/ },
  ],
  [
    'a vector that is not base64',
    (e) => e.importMemories(`${HEADER}\n{"text":"x","vector":"!!!"}`),
    { name: 'ImportFormatError', line: 2 },
  ],
  [
    'a vector of a partial float',
    (e) => e.importMemories(`${HEADER}\n{"text":"x","vector":"AAAA"}`),
    { name: 'ImportFormatError', line: 2 },
  ],
  [
    'an import batchSize of 0',
    (e) => e.importMemories(good, { batchSize: 0 }),
    { code: 'BAD_OPTION', field: 'batchSize' },
  ],
  [
    'string import defaults',
    (e) => e.importMemories(good, { defaults: 'x' as never }),
    { code: 'BAD_OPTION', field: 'defaults' },
  ],
]

async function expectRejected(call: Promise<unknown>, expected: Expected): Promise<void> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'expected the call to reject').toBeDefined()
  if ('code' in expected) {
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toMatchObject(expected)
  } else if (expected.name === 'ImportFormatError') {
    expect(error).toBeInstanceOf(ImportFormatError)
    expect(error).toMatchObject({ code: 'IMPORT_FORMAT', line: expected.line })
    if (expected.match) expect((error as Error).message).toMatch(expected.match)
  } else {
    expect(error).toBeInstanceOf(MemoryNotFoundError)
    expect(error).toMatchObject({ code: 'NOT_FOUND' })
  }
}

describe('bad input', () => {
  let e: MemoryEngine
  let seededId: string
  let before: string

  const snapshot = async () => JSON.stringify((await e.list({ limit: 1000 })).items)

  beforeAll(async () => {
    e = await openTestEngine()
    seededId = (await e.remember('The seeded memory stays as it is', { tags: ['seed'] })).id
    before = await snapshot()
  })
  afterAll(async () => {
    await e.close()
  })

  for (const [group, cases] of [
    ['remember', REMEMBER],
    ['rememberMany', MANY],
    ['update, forget and get', UPDATE_FORGET],
    ['recall, list, count and the recall log', READS],
    ['import', IMPORT],
  ] as const) {
    describe(group, () => {
      it.each(cases)(
        'rejects %s with a typed error and writes nothing',
        async (_label, call, expected) => {
          const seq = (await e.stats()).changeSeq
          await expectRejected(call(e, seededId), expected)
          expect((await e.stats()).changeSeq).toBe(seq)
          expect(await snapshot()).toBe(before)
          expect((await e.verify()).ok).toBe(true)
        },
      )
    })
  }

  it('rejects a vector when no embedding model is loaded', async () => {
    const plain = await openTestEngine({ embedder: null })
    await expectRejected(plain.remember('ok', { vector: unit() }), {
      code: 'BAD_VECTOR',
      field: 'vector',
    })
    expect(await plain.count()).toBe(0)
    await plain.close()
  })

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a numeric name', { name: 42 }, 'name'],
    ['writeBatch 0', { writeBatch: 0 }, 'writeBatch'],
    ['a fractional snapshotEvery', { snapshotEvery: 1.5 }, 'snapshotEvery'],
    ['recallLogSize 0', { recallLogSize: 0 }, 'recallLogSize'],
    ['a string clock', { clock: 'now' }, 'clock'],
  ])('refuses to open with %s', async (_label, options, field) => {
    await expect(
      MemoryEngine.open({
        name: 'bad-options',
        ...freshIdb(),
        embedder: new NgramEmbedder(),
        ...(options as object),
      } as never),
    ).rejects.toMatchObject({ name: 'InvalidInputError', code: 'BAD_OPTION', field })
  })
})

describe('invisible characters that are stripped, not rejected', () => {
  it.each([
    ['a zero-width space', 'pass\u200Bword reset link', 'password reset link'],
    ['a word joiner', 'pass\u2060word reset link', 'password reset link'],
    ['a byte-order mark', '\uFEFFpassword reset link', 'password reset link'],
    ['a soft hyphen', 'pass\u00ADword reset link', 'password reset link'],
  ])(
    'stores text with %s without it, deduplicated against the clean text',
    async (_label, dirty, clean) => {
      const e = await openTestEngine()
      const first = await e.remember(dirty)
      expect((await e.get(first.id))?.text).toBe(clean)
      expect(await e.remember(clean)).toMatchObject({ id: first.id, status: 'duplicate' })
      await e.close()
    },
  )

  it('keeps the joiners that emoji and scripts need', async () => {
    const e = await openTestEngine()
    const family = '👨\u200D👩\u200D👧 went to the beach'
    const { id } = await e.remember(family)
    expect((await e.get(id))?.text).toBe(family)
    await e.close()
  })
})

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
import { type InputRowId, inputCase, writeInputTally } from './input-tally.ts'

type Call = (e: MemoryEngine, id: string) => Promise<unknown>
/** `row` files a case under a row of the matrix in docs/reliability.md when its field does not say. */
type Expected = (
  | { code: InvalidInputCode; field?: string }
  | {
      name: 'ImportFormatError'
      line: number
      match?: RegExp
      /** The input error behind the line's fault, when one field failed its check. */
      fault?: InvalidInputCode
      field?: string
    }
  | { name: 'MemoryNotFoundError' }
) & { row?: InputRowId }

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
  [
    'a source with a bidi override and an isolate',
    (e) => e.remember('ok', { source: 'user\u202E\u2066evil' }),
    { code: 'BIDI_CONTROL', field: 'source' },
  ],
  [
    'a type with NUL and BEL',
    (e) => e.remember('ok', { type: 'fact\u0000\u0007' }),
    { code: 'CONTROL_CHARACTER', field: 'type' },
  ],
  [
    'a namespace with a tag character',
    (e) => e.remember('ok', { namespace: 'ns\u{E0041}' }),
    { code: 'HIDDEN_CHARACTER', field: 'namespace' },
  ],
  [
    'a source with a lone surrogate',
    (e) => e.remember('ok', { source: 'web \uD800' }),
    { code: 'LONE_SURROGATE', field: 'source' },
  ],
  [
    'a namespace of nothing but invisible separators',
    (e) => e.remember('ok', { namespace: ' \u200B\u2060 ' }),
    { code: 'BAD_OPTION', field: 'namespace' },
  ],
  [
    'a 257-character type',
    (e) => e.remember('ok', { type: 't'.repeat(257) }),
    { code: 'BAD_OPTION', field: 'type' },
  ],
  [
    'a misspelt option name',
    (e) => e.remember('ok', { namspace: 'work' } as never),
    { code: 'BAD_OPTION', field: 'namspace', row: 'unknown' },
  ],
  [
    'an option of another method',
    (e) => e.remember('ok', { k: 5 } as never),
    { code: 'BAD_OPTION', field: 'k', row: 'unknown' },
  ],
  [
    'an expiresAt beyond what a Date holds',
    (e) => e.remember('ok', { expiresAt: 9e15 }),
    { code: 'BAD_OPTION', field: 'expiresAt' },
  ],
  [
    'null for meta',
    (e) => e.remember('ok', { meta: null as never }),
    { code: 'BAD_OPTION', field: 'meta' },
  ],
  [
    'a Date for meta',
    (e) => e.remember('ok', { meta: new Date(0) as never }),
    { code: 'BAD_OPTION', field: 'meta' },
  ],
  [
    'a Date in meta',
    (e) => e.remember('ok', { meta: { when: new Date(0) } }),
    { code: 'BAD_META', field: 'meta.when' },
  ],
  [
    'a Map in meta',
    (e) => e.remember('ok', { meta: { seen: new Map([['a', 1]]) } }),
    { code: 'BAD_META', field: 'meta.seen' },
  ],
  [
    'a Set deep in meta',
    (e) => e.remember('ok', { meta: { a: { b: [1, 2, new Set([3])] } } }),
    { code: 'BAD_META', field: 'meta.a.b[2]' },
  ],
  [
    'NaN in meta',
    (e) => e.remember('ok', { meta: { score: Number.NaN } }),
    { code: 'BAD_META', field: 'meta.score' },
  ],
  [
    'Infinity in meta',
    (e) => e.remember('ok', { meta: { list: [Number.POSITIVE_INFINITY] } }),
    { code: 'BAD_META', field: 'meta.list[0]' },
  ],
  [
    'a BigInt in meta',
    (e) => e.remember('ok', { meta: { n: 10n } }),
    { code: 'BAD_META', field: 'meta.n' },
  ],
  [
    'a cycle in meta',
    (e) => {
      const meta: Record<string, unknown> = { name: 'loop' }
      meta.self = { back: meta }
      return e.remember('ok', { meta })
    },
    { code: 'BAD_META', field: 'meta.self.back' },
  ],
  [
    'undefined in meta',
    (e) => e.remember('ok', { meta: { speaker: undefined } }),
    { code: 'BAD_META', field: 'meta.speaker' },
  ],
  [
    'a function in meta',
    (e) => e.remember('ok', { meta: { f: () => 1 } }),
    { code: 'BAD_META', field: 'meta.f' },
  ],
  [
    'a sparse array in meta',
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
    (e) => e.remember('ok', { meta: { list: [1, , 3] } }),
    { code: 'BAD_META', field: 'meta.list[1]' },
  ],
  [
    'a class instance in meta',
    (e) =>
      e.remember('ok', {
        meta: {
          at: new (class Point {
            x = 1
          })(),
        },
      }),
    { code: 'BAD_META', field: 'meta.at' },
  ],
  [
    'meta nested nine levels deep',
    (e) => e.remember('ok', { meta: { a: { b: { c: { d: { e: { f: { g: { h: {} } } } } } } } } }),
    { code: 'META_TOO_LARGE', field: 'meta.a.b.c.d.e.f.g.h' },
  ],
  [
    '17 KB of meta',
    (e) => e.remember('ok', { meta: { blob: 'x'.repeat(17_000) } }),
    { code: 'META_TOO_LARGE', field: 'meta' },
  ],
  [
    '40 MB of meta',
    (e) => e.remember('ok', { meta: { rows: new Array(4000).fill('x'.repeat(10_000)) } }),
    { code: 'META_TOO_LARGE', field: 'meta' },
  ],
  [
    'a control character in a meta string',
    (e) => e.remember('ok', { meta: { speaker: { name: 'Ana\u0007' } } }),
    { code: 'CONTROL_CHARACTER', field: 'meta.speaker.name' },
  ],
  [
    'a bidi override in a meta key',
    (e) => e.remember('ok', { meta: { 'a\u202Eb': 1 } }),
    { code: 'BIDI_CONTROL', field: 'meta["a\\u{202E}b"]' },
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
  [
    'a string item',
    (e) => e.rememberMany([{ text: 'fine' }, 'just text' as never]),
    { code: 'BAD_OPTION', field: 'items[1]' },
  ],
  [
    'an array item',
    (e) => e.rememberMany([[] as never]),
    { code: 'BAD_OPTION', field: 'items[0]' },
  ],
  [
    'a misspelt option in an item',
    (e) => e.rememberMany([{ text: 'ok', tgas: ['x'] } as never]),
    { code: 'BAD_OPTION', field: 'items[0].tgas', row: 'unknown' },
  ],
  [
    'a bidi source in the second item',
    (e) => e.rememberMany([{ text: 'a' }, { text: 'b', source: 'x\u202Ey' }]),
    { code: 'BIDI_CONTROL', field: 'items[1].source' },
  ],
  [
    'a Date in an item meta',
    (e) => e.rememberMany([{ text: 'a', meta: { when: new Date(0) } }]),
    { code: 'BAD_META', field: 'items[0].meta.when' },
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
  [
    'a get with an id holding NUL',
    (e) => e.get('01\u0000'),
    { code: 'CONTROL_CHARACTER', field: 'id' },
  ],
  [
    'a forget of an id with a lone surrogate',
    (e) => e.forget('01\uDC00'),
    { code: 'LONE_SURROGATE', field: 'id' },
  ],
  [
    'a patch source with a bidi override',
    (e, id) => e.update(id, { source: 'user\u202Eevil' }),
    { code: 'BIDI_CONTROL', field: 'patch.source' },
  ],
  [
    'a patch type with NUL',
    (e, id) => e.update(id, { type: 'fact\u0000' }),
    { code: 'CONTROL_CHARACTER', field: 'patch.type' },
  ],
  [
    'a patch meta with a Date',
    (e, id) => e.update(id, { meta: { when: new Date(0) } }),
    { code: 'BAD_META', field: 'patch.meta.when' },
  ],
  [
    'a patch meta with a cycle',
    (e, id) => {
      const meta: Record<string, unknown> = {}
      meta.me = meta
      return e.update(id, { meta })
    },
    { code: 'BAD_META', field: 'patch.meta.me' },
  ],
  [
    'a patch moving the namespace, which update cannot change',
    (e, id) => e.update(id, { namespace: 'other' } as never),
    { code: 'BAD_OPTION', field: 'patch.namespace', row: 'unknown' },
  ],
  [
    'a patch with an unknown confidence',
    (e, id) => e.update(id, { confidence: 'sure' as never }),
    { code: 'BAD_OPTION', field: 'patch.confidence' },
  ],
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
    (e) => e.inspect.recallLog({ limit: 0 }),
    { code: 'BAD_OPTION', field: 'limit' },
  ],
  [
    'a query holding NUL',
    (e) => e.recall('who\u0000is'),
    { code: 'CONTROL_CHARACTER', field: 'query' },
  ],
  [
    'a query with a lone surrogate',
    (e) => e.recall('who \uD800'),
    { code: 'LONE_SURROGATE', field: 'query' },
  ],
  [
    'a query with a bidi override',
    (e) => e.recall('who \u202Eis'),
    { code: 'BIDI_CONTROL', field: 'query' },
  ],
  [
    'a query with tag characters',
    (e) => e.recall('who \u{E0041}'),
    { code: 'HIDDEN_CHARACTER', field: 'query' },
  ],
  [
    "explain: 'false'",
    (e) => e.recall('ok', { explain: 'false' as never }),
    { code: 'BAD_OPTION', field: 'explain' },
  ],
  [
    "includeFlagged: 'no'",
    (e) => e.recall('ok', { includeFlagged: 'no' as never }),
    { code: 'BAD_OPTION', field: 'includeFlagged' },
  ],
  [
    'boosts: 0',
    (e) => e.recall('ok', { boosts: 0 as never }),
    { code: 'BAD_OPTION', field: 'boosts' },
  ],
  [
    "log: 'yes'",
    (e) => e.recall('ok', { log: 'yes' as never }),
    { code: 'BAD_OPTION', field: 'log' },
  ],
  [
    'a misspelt recall option',
    (e) => e.recall('ok', { limit: 5 } as never),
    { code: 'BAD_OPTION', field: 'limit', row: 'unknown' },
  ],
  [
    'a recall namespace with NUL',
    (e) => e.recall('ok', { namespace: 'a\u0000' }),
    { code: 'CONTROL_CHARACTER', field: 'namespace' },
  ],
  [
    'a numeric type filter',
    (e) => e.recall('ok', { types: [3 as never] }),
    { code: 'BAD_OPTION', field: 'types[0]' },
  ],
  [
    'a string select hook',
    (e) => e.recall('ok', { select: 'judge' as never }),
    { code: 'BAD_OPTION', field: 'select' },
  ],
  [
    'a misspelt select option',
    (e) => e.recall('ok', { selectOptions: { kep: 2 } as never }),
    { code: 'BAD_OPTION', field: 'selectOptions.kep', row: 'unknown' },
  ],
  [
    'a weight of Infinity',
    (e) => e.recall('ok', { weights: { vector: Number.POSITIVE_INFINITY } }),
    { code: 'BAD_OPTION', field: 'weights.vector' },
  ],
  [
    'a numeric list tag',
    (e) => e.list({ tag: 5 as never }),
    { code: 'BAD_OPTION', field: 'tag', row: 'options' },
  ],
  [
    'a numeric list namespace',
    (e) => e.list({ namespace: 7 as never }),
    { code: 'BAD_OPTION', field: 'namespace' },
  ],
  [
    'an object list type',
    (e) => e.list({ type: {} as never }),
    { code: 'BAD_OPTION', field: 'type' },
  ],
  [
    'a string list limit',
    (e) => e.list({ limit: '5' as never }),
    { code: 'BAD_OPTION', field: 'limit' },
  ],
  [
    'a misspelt list option',
    (e) => e.list({ limt: 5 } as never),
    { code: 'BAD_OPTION', field: 'limt', row: 'unknown' },
  ],
  [
    'a null count namespace',
    (e) => e.count({ namespace: null as never }),
    { code: 'BAD_OPTION', field: 'namespace', row: 'options' },
  ],
  [
    'a count by tag, which count does not filter on',
    (e) => e.count({ tag: 'x' } as never),
    { code: 'BAD_OPTION', field: 'tag', row: 'unknown' },
  ],
  [
    'a string recall-log limit',
    (e) => e.inspect.recallLog({ limit: '5' as never }),
    { code: 'BAD_OPTION', field: 'limit' },
  ],
  [
    "export vectors: 'yes'",
    (e) => e.transfer.export({ vectors: 'yes' as never }),
    { code: 'BAD_OPTION', field: 'vectors' },
  ],
  [
    'a numeric export namespace',
    (e) => e.transfer.export({ namespace: 5 as never }),
    { code: 'BAD_OPTION', field: 'namespace' },
  ],
  [
    'a misspelt export option',
    (e) => e.transfer.export({ vector: true } as never),
    { code: 'BAD_OPTION', field: 'vector', row: 'unknown' },
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
    (e) => e.transfer.import(42 as never),
    { name: 'ImportFormatError', line: 0 },
  ],
  [
    'a line that is not JSON',
    (e) => e.transfer.import(`${good}\n{"text": "unclosed`),
    { name: 'ImportFormatError', line: 2, match: /not valid JSON/ },
  ],
  [
    'a line that is an array',
    (e) => e.transfer.import(`${good}\n["text"]`),
    { name: 'ImportFormatError', line: 2 },
  ],
  [
    'a line that is a number',
    (e) => e.transfer.import(`${good}\n\n7`),
    { name: 'ImportFormatError', line: 3 },
  ],
  [
    'a line without text',
    (e) => e.transfer.import(`${good}\n{"tags":["x"]}`),
    {
      name: 'ImportFormatError',
      line: 2,
      fault: 'BAD_OPTION',
      field: 'text',
      match: /expected a string, got undefined \(text\)$/,
    },
  ],
  [
    'a line whose text has a bidi override',
    (e) => e.transfer.import(`${good}\n{"text":"a \\u202E b"}`),
    {
      name: 'ImportFormatError',
      line: 2,
      fault: 'BIDI_CONTROL',
      field: 'text',
      match: /expected no bidi embedding, override or isolate, got U\+202E/,
    },
  ],
  [
    'a line with an unknown trust',
    (e) => e.transfer.import(`${good}\n{"text":"x","trust":"root"}`),
    { name: 'ImportFormatError', line: 2, match: /trust/ },
  ],
  [
    'a header after data',
    (e) => e.transfer.import(`${good}\n${HEADER}`),
    { name: 'ImportFormatError', line: 2, match: /header/ },
  ],
  [
    'an unsupported export version',
    (e) => e.transfer.import(`{"format":"engram","version":99}\n${good}`),
    { name: 'ImportFormatError', line: 1, match: /version/ },
  ],
  [
    'a vector that is not base64',
    (e) => e.transfer.import(`${HEADER}\n{"text":"x","vector":"!!!"}`),
    { name: 'ImportFormatError', line: 2 },
  ],
  [
    'a vector of a partial float',
    (e) => e.transfer.import(`${HEADER}\n{"text":"x","vector":"AAAA"}`),
    { name: 'ImportFormatError', line: 2 },
  ],
  [
    'an import batchSize of 0',
    (e) => e.transfer.import(good, { batchSize: 0 }),
    { code: 'BAD_OPTION', field: 'batchSize' },
  ],
  [
    'string import defaults',
    (e) => e.transfer.import(good, { defaults: 'x' as never }),
    { code: 'BAD_OPTION', field: 'defaults' },
  ],
  [
    'a line whose namespace has a bidi isolate',
    (e) => e.transfer.import(`${good}\n{"text":"x","namespace":"ns\\u2066"}`),
    {
      name: 'ImportFormatError',
      line: 2,
      fault: 'BIDI_CONTROL',
      field: 'namespace',
      match: /expected no bidi .*, got U\+2066 at index 2 \(namespace\)$/,
    },
  ],
  [
    'a line whose type holds NUL',
    (e) => e.transfer.import(`${good}\n{"text":"x","type":"fact\\u0000"}`),
    {
      name: 'ImportFormatError',
      line: 2,
      fault: 'CONTROL_CHARACTER',
      field: 'type',
      match: /expected no control characters, got U\+0000 at index 4 \(type\)$/,
    },
  ],
  [
    'a line whose source has a tag character',
    (e) => e.transfer.import(`${good}\n{"text":"x","source":"web\\udb40\\udc41"}`),
    {
      name: 'ImportFormatError',
      line: 2,
      fault: 'HIDDEN_CHARACTER',
      field: 'source',
      match: /expected no invisible characters, got U\+E0041 at index 3 \(source\)$/,
    },
  ],
  [
    'a line whose meta string holds a bell',
    (e) => e.transfer.import(`${good}\n{"text":"x","meta":{"who":["Ana\\u0007"]}}`),
    {
      name: 'ImportFormatError',
      line: 2,
      fault: 'CONTROL_CHARACTER',
      field: 'meta.who[0]',
      match: /expected no control characters, got U\+0007 .*\(meta\.who\[0\]\)$/,
    },
  ],
  [
    'a line whose meta is too large',
    (e) => e.transfer.import(`${good}\n{"text":"x","meta":{"blob":"${'x'.repeat(17_000)}"}}`),
    {
      name: 'ImportFormatError',
      line: 2,
      fault: 'META_TOO_LARGE',
      field: 'meta',
      match: /expected at most 16384 bytes as JSON, got more \(meta\)$/,
    },
  ],
  [
    'a line with a createdAt that is not a time',
    (e) => e.transfer.import(`${good}\n{"text":"x","createdAt":"yesterday"}`),
    { name: 'ImportFormatError', line: 2, match: /createdAt/ },
  ],
  [
    'a line with zero confirmations',
    (e) => e.transfer.import(`${good}\n{"text":"x","confirmations":0}`),
    { name: 'ImportFormatError', line: 2, match: /confirmations/ },
  ],
  [
    'a misspelt import option',
    (e) => e.transfer.import(good, { batchsize: 10 } as never),
    { code: 'BAD_OPTION', field: 'batchsize', row: 'unknown' },
  ],
  [
    'a vector in import defaults',
    (e) => e.transfer.import(good, { defaults: { vector: new Float32Array(DIMS) } }),
    { code: 'BAD_OPTION', field: 'defaults.vector', row: 'unknown' },
  ],
  [
    'a default namespace with a bidi override',
    (e) => e.transfer.import(good, { defaults: { namespace: 'a\u202E' } }),
    { code: 'BIDI_CONTROL', field: 'defaults.namespace' },
  ],
  [
    'an unknown default poison policy',
    (e) => e.transfer.import(good, { defaults: { poison: 'maybe' as never } }),
    { code: 'BAD_OPTION', field: 'defaults.poison' },
  ],
  [
    'a line field that is not one',
    (e) => e.transfer.import(good, { lineFields: ['poison' as never] }),
    { code: 'BAD_OPTION', field: 'lineFields[0]' },
  ],
]

/** The matrix row a case counts under: its own `row`, else what its field or code says. */
function rowOf(expected: Expected): InputRowId {
  if (expected.row) return expected.row
  if (!('code' in expected)) return expected.name === 'ImportFormatError' ? 'lines' : 'labels'
  const { code, field = '' } = expected
  if (/(^|\.)query$/.test(field)) return 'queries'
  if (code === 'BAD_META' || code === 'META_TOO_LARGE' || /(^|\.)meta([.[]|$)/.test(field))
    return 'meta'
  if (code === 'BAD_VECTOR') return 'vectors'
  if (/(^|\.)text$/.test(field)) return 'text'
  if (/(^|\.)(namespace|type|source)$/.test(field)) return 'names'
  if (code === 'BAD_ID' || /(^|\.)(tags|aliases|types)(\[\d+\])?$/.test(field)) return 'labels'
  return 'options'
}

async function expectRejected(call: Promise<unknown>, expected: Expected): Promise<void> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'expected the call to reject').toBeDefined()
  if ('code' in expected) {
    const { row: _row, ...wanted } = expected
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toMatchObject(wanted)
  } else if (expected.name === 'ImportFormatError') {
    expect(error).toBeInstanceOf(ImportFormatError)
    expect(error).toMatchObject({ code: 'IMPORT_FORMAT', line: expected.line })
    if (expected.fault) {
      expect(error).toMatchObject({ fault: expected.fault, field: expected.field })
    }
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
    writeInputTally('bad-input')
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
          const passed = inputCase(rowOf(expected))
          const seq = (await e.inspect.stats()).changeSeq
          await expectRejected(call(e, seededId), expected)
          expect((await e.inspect.stats()).changeSeq).toBe(seq)
          expect(await snapshot()).toBe(before)
          expect((await e.inspect.verify()).ok).toBe(true)
          passed()
        },
      )
    })
  }

  it('rejects a vector when no embedding model is loaded', async () => {
    const passed = inputCase('vectors')
    const plain = await openTestEngine({ embedder: null })
    await expectRejected(plain.remember('ok', { vector: unit() }), {
      code: 'BAD_VECTOR',
      field: 'vector',
    })
    expect(await plain.count()).toBe(0)
    await plain.close()
    passed()
  })

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a numeric name', { name: 42 }, 'name'],
    ['writeBatch 0', { writeBatch: 0 }, 'writeBatch'],
    ['a fractional snapshotEvery', { snapshotEvery: 1.5 }, 'snapshotEvery'],
    ['recallLogSize 0', { recallLogSize: 0 }, 'recallLogSize'],
    ['a string clock', { clock: 'now' }, 'clock'],
    ['a misspelt option', { writebatch: 10 }, 'writebatch'],
    ['a string limit', { limits: { maxTags: '32' } }, 'limits.maxTags'],
    [
      'a negative near-duplicate threshold',
      { retrieval: { nearDuplicate: -1 } },
      'retrieval.nearDuplicate',
    ],
    ['an unknown fusion', { retrieval: { fusion: 'max' } }, 'retrieval.fusion'],
  ])('refuses to open with %s', async (_label, options, field) => {
    const passed = inputCase(field === 'writebatch' ? 'unknown' : 'options')
    await expect(
      MemoryEngine.open({
        name: 'bad-options',
        ...freshIdb(),
        embedder: new NgramEmbedder(),
        ...(options as object),
      } as never),
    ).rejects.toMatchObject({ name: 'InvalidInputError', code: 'BAD_OPTION', field })
    passed()
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

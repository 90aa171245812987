import { describe, expect, it } from 'vitest'
import { sealBytes, tokenOf } from '../../../../src/storage/at-rest/cipher.ts'
import { encodeValue } from '../../../../src/storage/at-rest/codec.ts'
import { AT_REST_RULES, SEALED_FIELD } from '../../../../src/storage/at-rest/row-rules.ts'
import {
  openRow,
  REFUSED,
  sealRow,
  type TableKey,
} from '../../../../src/storage/at-rest/row-seal.ts'

const keys = () => ({ seal: new Uint8Array(32).fill(7), mac: new Uint8Array(32).fill(9) })
const rule = AT_REST_RULES.memories!
const at: TableKey = { table: 'memories', keyPath: 'id', auto: false }
const row = {
  id: '01A',
  namespace: 'default',
  type: 'fact',
  trust: 'unverified',
  confidence: 0.5,
  text: 'The owner prefers metric units',
  key: 'the owner prefers metric units',
  tags: ['units', 'owner'],
  createdAt: 5,
  expiresAt: Number.POSITIVE_INFINITY,
  brandNewField: 'revealing',
}

describe('sealing a row', () => {
  it('keeps the plain fields, hashes the indexed ones and seals the rest, new fields included', () => {
    const stored = sealRow(keys(), rule, at, row)
    expect(Object.keys(stored).sort()).toEqual(
      [
        'confidence',
        'createdAt',
        'expiresAt',
        'id',
        'key',
        'namespace',
        SEALED_FIELD,
        'tags',
        'trust',
        'type',
      ].sort(),
    )
    expect(stored.key).toBe(tokenOf(keys(), 'key', row.key))
    expect(stored.tags).toEqual(row.tags.map((t) => tokenOf(keys(), 'tags', t)))
    expect(openRow(keys(), rule, at, stored)).toEqual(row)
  })

  it('gives equal tokens for equal values and different ones under another key', () => {
    expect(tokenOf(keys(), 'tags', 'units')).toBe(tokenOf(keys(), 'tags', 'units'))
    expect(tokenOf(keys(), 'tags', 'units')).not.toBe(tokenOf(keys(), 'key', 'units'))
    const other = { seal: keys().seal, mac: new Uint8Array(32).fill(1) }
    expect(tokenOf(other, 'tags', 'units')).not.toBe(tokenOf(keys(), 'tags', 'units'))
  })

  it('refuses a row under another key, in another table or with a flipped byte', () => {
    const stored = sealRow(keys(), rule, at, row)
    const wrongKey = { seal: new Uint8Array(32).fill(8), mac: keys().mac }
    expect(openRow(wrongKey, rule, at, stored)).toBe(REFUSED)
    expect(openRow(keys(), rule, { ...at, table: 'vectors' }, stored)).toBe(REFUSED)
    const sealed = new Uint8Array(stored[SEALED_FIELD] as Uint8Array)
    sealed[20]! ^= 1
    expect(openRow(keys(), rule, at, { ...stored, [SEALED_FIELD]: sealed })).toBe(REFUSED)
  })

  it('refuses a row whose id, plain fields or tokens were edited beside the sealed part', () => {
    const stored = sealRow(keys(), rule, at, row)
    const edits: Record<string, unknown>[] = [
      { id: '01B' },
      { trust: 'trusted' },
      { namespace: 'other-tenant' },
      { confidence: 1 },
      { expiresAt: null },
      { createdAt: 6 },
      { tags: (stored.tags as string[]).slice(1) },
      { key: tokenOf(keys(), 'key', 'something else') },
      { needsReview: false },
    ]
    for (const edit of edits) {
      expect(openRow(keys(), rule, at, { ...stored, ...edit }), JSON.stringify(edit)).toBe(REFUSED)
    }
    const { trust: _dropped, ...withoutTrust } = stored
    expect(openRow(keys(), rule, at, withoutTrust)).toBe(REFUSED)
  })

  it('refuses a row stored in the clear, and anything that is not a row', () => {
    expect(openRow(keys(), rule, at, row)).toBe(REFUSED)
    expect(openRow(keys(), rule, at, { ...row, [SEALED_FIELD]: 'not bytes' })).toBe(REFUSED)
    expect(openRow(keys(), rule, at, 'a string')).toBe(REFUSED)
    expect(openRow(keys(), rule, at, null)).toBe(REFUSED)
  })

  it('binds a row of an auto-numbered table to its fields, not to the number it gets', () => {
    const recalls: TableKey = { table: 'recalls', keyPath: 'id', auto: true }
    const recallRule = AT_REST_RULES.recalls!
    const stored = sealRow(keys(), recallRule, recalls, { at: 7, query: 'units' })
    expect(openRow(keys(), recallRule, recalls, { ...stored, id: 12 })).toEqual({
      id: 12,
      at: 7,
      query: 'units',
    })
    expect(openRow(keys(), recallRule, recalls, { ...stored, id: 12, at: 8 })).toBe(REFUSED)
  })

  it('opens a row of the format before associated data bound the plain fields only as that format', () => {
    const { text, key, tags, brandNewField } = row
    const legacy = {
      id: '01A',
      namespace: 'default',
      type: 'fact',
      trust: 'unverified',
      [SEALED_FIELD]: sealBytes(
        keys(),
        'memories\u0000"01A"',
        encodeValue({ text, key, tags, brandNewField }),
      ),
    }
    expect(openRow(keys(), rule, at, legacy, 1)).toMatchObject({ id: '01A', text })
    expect(openRow(keys(), rule, at, legacy)).toBe(REFUSED)
  })

  it('refuses to seal a row with a Map, Set or byte array as a plain field, which would be bound as {}', () => {
    for (const odd of [new Map([['a', 1]]), new Set([1]), new Uint8Array(2), new ArrayBuffer(2)]) {
      expect(() => sealRow(keys(), rule, at, { ...row, confidence: odd })).toThrow(TypeError)
      expect(() => sealRow(keys(), rule, at, { ...row, confidence: [{ nested: odd }] })).toThrow(
        TypeError,
      )
    }
    const plain = { ...row, confidence: { a: 1, at: new Date(3) }, createdAt: [1, 2] }
    expect(openRow(keys(), rule, at, sealRow(keys(), rule, at, plain))).toEqual(plain)
  })

  it('does not change the row it was given', () => {
    const copy = structuredClone(row)
    sealRow(keys(), rule, at, row)
    expect(row).toEqual(copy)
  })
})

import { describe, expect, it } from 'vitest'
import { tokenOf } from '../../../../src/storage/at-rest/cipher.ts'
import { AT_REST_RULES, SEALED_FIELD } from '../../../../src/storage/at-rest/row-rules.ts'
import { openRow, sealContext, sealRow } from '../../../../src/storage/at-rest/row-seal.ts'

const keys = () => ({ seal: new Uint8Array(32).fill(7), mac: new Uint8Array(32).fill(9) })
const rule = AT_REST_RULES.memories!
const row = {
  id: '01A',
  namespace: 'default',
  type: 'fact',
  text: 'The owner prefers metric units',
  key: 'the owner prefers metric units',
  tags: ['units', 'owner'],
  createdAt: 5,
  brandNewField: 'revealing',
}

describe('sealing a row', () => {
  it('keeps the plain fields, hashes the indexed ones and seals the rest, new fields included', () => {
    const stored = sealRow(keys(), rule, sealContext('memories', '01A'), row)
    expect(Object.keys(stored).sort()).toEqual(
      ['createdAt', 'id', 'key', 'namespace', SEALED_FIELD, 'tags', 'type'].sort(),
    )
    expect(stored.key).toBe(tokenOf(keys(), 'key', row.key))
    expect(stored.tags).toEqual(row.tags.map((t) => tokenOf(keys(), 'tags', t)))
    expect(openRow(keys(), rule, sealContext('memories', '01A'), stored)).toEqual(row)
  })

  it('gives equal tokens for equal values and different ones under another key', () => {
    expect(tokenOf(keys(), 'tags', 'units')).toBe(tokenOf(keys(), 'tags', 'units'))
    expect(tokenOf(keys(), 'tags', 'units')).not.toBe(tokenOf(keys(), 'key', 'units'))
    const other = { seal: keys().seal, mac: new Uint8Array(32).fill(1) }
    expect(tokenOf(other, 'tags', 'units')).not.toBe(tokenOf(keys(), 'tags', 'units'))
  })

  it('fails to open under another key, another row id or a flipped byte', () => {
    const stored = sealRow(keys(), rule, sealContext('memories', '01A'), row)
    const wrongKey = { seal: new Uint8Array(32).fill(8), mac: keys().mac }
    expect(() => openRow(wrongKey, rule, sealContext('memories', '01A'), stored)).toThrow()
    expect(() => openRow(keys(), rule, sealContext('memories', '01B'), stored)).toThrow()
    const sealed = new Uint8Array(stored[SEALED_FIELD] as Uint8Array)
    sealed[20]! ^= 1
    const flipped = { ...stored, [SEALED_FIELD]: sealed }
    expect(() => openRow(keys(), rule, sealContext('memories', '01A'), flipped)).toThrow()
  })

  it('does not change the row it was given', () => {
    const copy = structuredClone(row)
    sealRow(keys(), rule, sealContext('memories', '01A'), row)
    expect(row).toEqual(copy)
  })
})

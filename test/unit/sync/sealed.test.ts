import { describe, expect, it } from 'vitest'
import { seal, unseal } from '../../../src/sync/sealed.ts'
import { deriveSyncKeys, memoryDocId } from '../../../src/sync/sync-keys.ts'

async function keysFrom(seed: number) {
  const bytes = new Uint8Array(32).map((_, i) => (i * 17 + seed) & 0xff)
  const base = await crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey'])
  return deriveSyncKeys(base, new Uint8Array(16).fill(seed))
}

describe('sealed documents', () => {
  it('seals the same value to the same bytes, and a changed value to others', async () => {
    const keys = await keysFrom(1)
    const a = await seal(keys, 'm:x', { text: 'The vault PIN is 90210', n: 1 })
    const b = await seal(keys, 'm:x', { n: 1, text: 'The vault PIN is 90210' })
    const c = await seal(keys, 'm:x', { text: 'The vault PIN is 90211', n: 1 })
    expect(b).toEqual(a)
    expect(c.iv).not.toBe(a.iv)
    expect(JSON.stringify(a)).not.toContain('vault')
    expect(await unseal(keys, 'm:x', a)).toEqual({ n: 1, text: 'The vault PIN is 90210' })
  })

  it('refuses to open a body under another key or moved to another id', async () => {
    const sealed = await seal(await keysFrom(1), 'm:x', { text: 'secret' })
    await expect(unseal(await keysFrom(2), 'm:x', sealed)).rejects.toThrow()
    await expect(unseal(await keysFrom(1), 'm:y', sealed)).rejects.toThrow()
  })

  it('names a memory by a keyed hash of its identity that differs per key', async () => {
    const identity = { namespace: 'default', type: 'fact', key: 'the vault pin is 90210' }
    const one = await memoryDocId(await keysFrom(1), identity)
    expect(one).toBe(await memoryDocId(await keysFrom(1), { ...identity }))
    expect(one).not.toBe(await memoryDocId(await keysFrom(2), identity))
    expect(one).not.toBe(await memoryDocId(await keysFrom(1), { ...identity, type: 'skill' }))
    expect(one).toMatch(/^m:[A-Za-z0-9_-]{43}$/)
  })
})

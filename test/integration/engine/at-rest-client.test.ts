/**
 * Encryption at rest through the worker's host over a real MessageChannel: the secret crosses
 * as data, and the lock and key errors come back as their own classes.
 */
import * as Comlink from 'comlink'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { connectMemory } from '../../../src/client/connect-memory.ts'
import type { MemoryClient, OpenMemoryOptions } from '../../../src/client/memory-client.ts'
import { EncryptionError, MemoryLockedError } from '../../../src/core/errors.ts'
import { createMemoryHost } from '../../../src/host/memory-host.ts'

const open: { client?: MemoryClient; ports: MessagePort[] }[] = []

async function connect(indexedDB: IDBFactory, options: Partial<OpenMemoryOptions>) {
  const { port1, port2 } = new MessageChannel()
  const entry: { client?: MemoryClient; ports: MessagePort[] } = { ports: [port1, port2] }
  open.push(entry)
  Comlink.expose(createMemoryHost({ indexedDB, IDBKeyRange }), port1)
  entry.client = await connectMemory(
    port2,
    { embedder: { kind: 'ngram', dims: 64 }, tabSync: false, name: 'client-at-rest', ...options },
    { terminate: () => port2.close() },
  )
  return entry.client
}

afterEach(async () => {
  for (const { client, ports } of open.splice(0)) {
    await client?.close().catch(() => {})
    for (const port of ports) port.close()
  }
})

describe('encryption at rest over the worker boundary', () => {
  it('locks and unlocks, with typed errors rebuilt on the page side', async () => {
    const idb = new IDBFactory()
    // The real floor of rounds: three derivations, about a second in all.
    const encryption = { passphrase: 'over the wire' }
    const memory = await connect(idb, { encryption })
    const { id } = await memory.remember('Sealed across the channel')
    await memory.atRest.lock()
    expect((await memory.inspect.stats()).atRest).toBe('locked')
    const refused = await memory.get(id).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MemoryLockedError)
    const wrong = await memory.atRest
      .unlock({ passphrase: 'not it' })
      .catch((error: unknown) => error)
    expect(wrong).toBeInstanceOf(EncryptionError)
    expect(wrong).toMatchObject({ code: 'WRONG_KEY' })
    await memory.atRest.unlock(encryption)
    expect((await memory.recall('sealed channel', { k: 1 })).hits[0]?.id).toBe(id)
  })

  it('rebuilds KEY_REQUIRED for an encrypted memory opened without its secret', async () => {
    const idb = new IDBFactory()
    const key = await crypto.subtle.importKey('raw', new Uint8Array(32).fill(6), 'HKDF', false, [
      'deriveKey',
    ])
    const first = await connect(idb, { encryption: { key } })
    await first.remember('Anything')
    await first.close()
    const error = await connect(idb, {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EncryptionError)
    expect(error).toMatchObject({ code: 'KEY_REQUIRED' })
  })

  it('takes an HKDF CryptoKey through the channel', async () => {
    const key = await crypto.subtle.importKey('raw', new Uint8Array(32).fill(5), 'HKDF', false, [
      'deriveKey',
    ])
    const memory = await connect(new IDBFactory(), { encryption: { key } })
    await memory.remember('Under an app key')
    expect(await memory.count()).toBe(1)
  })
})

import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import {
  DEVICE_CHOICE_DB,
  type DeviceChoice,
  defaultDeviceChoices,
  IndexedDbDeviceChoices,
  MemoryDeviceChoices,
} from '../../../src/embedder/device-choice-store.ts'

const CHOICE: DeviceChoice = {
  device: 'wasm',
  decidedAt: 1_700_000_000_000,
  trial: {
    totalMs: 812,
    budgetMs: 3000,
    entries: [
      { device: 'wasm', loadMs: 300, runsMs: [40, 41, 39], medianMs: 40 },
      { device: 'webgpu', loadMs: 2100, runsMs: [], cut: 'budget' },
    ],
  },
}

describe('IndexedDbDeviceChoices', () => {
  it('keeps a decision across connections and forgets it on delete', async () => {
    const factory = new IDBFactory()
    const a = new IndexedDbDeviceChoices(factory)
    await a.set('k', CHOICE)
    await a.close()
    const b = new IndexedDbDeviceChoices(factory)
    expect(await b.get('k')).toEqual(CHOICE)
    expect(await b.get('other')).toBeUndefined()
    await b.delete('k')
    expect(await b.get('k')).toBeUndefined()
    expect((await factory.databases()).map((d) => d.name)).toEqual([DEVICE_CHOICE_DB])
    await b.close()
  })

  it('ignores a stored value that is not a decision', async () => {
    const factory = new IDBFactory()
    const store = new IndexedDbDeviceChoices(factory)
    await store.set('k', { device: 3 } as unknown as DeviceChoice)
    expect(await store.get('k')).toBeUndefined()
    await store.close()
  })

  it('steps aside when another connection upgrades the database', async () => {
    const factory = new IDBFactory()
    const store = new IndexedDbDeviceChoices(factory)
    await store.set('k', CHOICE)
    const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(DEVICE_CHOICE_DB, 2)
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    expect(upgraded.version).toBe(2)
    upgraded.close()
  })
})

describe('MemoryDeviceChoices', () => {
  it('returns copies, so a caller cannot change what is remembered', async () => {
    const store = new MemoryDeviceChoices()
    await store.set('k', CHOICE)
    const got = await store.get('k')
    got!.device = 'webgpu'
    expect((await store.get('k'))?.device).toBe('wasm')
  })
})

describe('defaultDeviceChoices', () => {
  it('is one memory store per process where there is no indexedDB', async () => {
    expect('indexedDB' in globalThis).toBe(false)
    const a = defaultDeviceChoices()
    await a.set('shared', CHOICE)
    expect(a).toBeInstanceOf(MemoryDeviceChoices)
    expect(await defaultDeviceChoices().get('shared')).toEqual(CHOICE)
  })
})

import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { SCHEMA_VERSION } from '../../../src/storage/index.ts'
import { freshIdb } from '../../helpers/engine.ts'

describe('schema 1 → 2', () => {
  it('gives old rows a numeric confidence and their type’s tier, and adds relations', async () => {
    const idb = freshIdb()
    const v1 = new Dexie('engram:old', { indexedDB: idb.indexedDB, IDBKeyRange: idb.IDBKeyRange })
    v1.version(1).stores({
      memories: 'id, &[namespace+type+key], [namespace+type], namespace, *tags, pageId',
      vectors: 'id, model',
      changes: '++seq, id',
      snapshots: 'name',
      recalls: '++id, at',
      meta: 'key',
    })
    const base = {
      namespace: 'default',
      tags: [],
      aliases: [],
      source: 'agent',
      trust: 'unverified',
      flags: [],
      createdAt: 1,
      updatedAt: 1,
      confirmedAt: Date.now(),
      confirmations: 1,
      recallCount: 0,
    }
    await v1.table('memories').bulkPut([
      { ...base, id: '01A', type: 'log', text: 'Deployed', key: 'deployed', confidence: 'high' },
      { ...base, id: '01B', type: 'skill', text: 'Run ci', key: 'run ci', confidence: 'low' },
    ])
    await v1.table('changes').bulkAdd([
      { op: 'put', id: '01A', at: 1 },
      { op: 'put', id: '01B', at: 1 },
    ])
    v1.close()
    const e = await MemoryEngine.open({ name: 'old', ...idb })
    try {
      expect(await e.get('01A')).toMatchObject({ confidence: 0.9, tier: 'episodic' })
      expect(await e.get('01B')).toMatchObject({ confidence: 0.3, tier: 'procedural' })
      expect((await e.recall('deployed', { log: false })).hits.map((h) => h.id)).toEqual(['01A'])
      expect(await e.relations.of('01A')).toEqual([])
    } finally {
      await e.close()
    }
  })
})

describe('schema 2 → 3', () => {
  it('closes a tab still on schema 2 when this version opens (old tabs kept writing format-1 rows)', async () => {
    const idb = freshIdb()
    const old = new Dexie('engram:older-tab', {
      indexedDB: idb.indexedDB,
      IDBKeyRange: idb.IDBKeyRange,
    })
    old.version(1).stores({
      memories: 'id, &[namespace+type+key], [namespace+type], namespace, *tags, pageId',
      vectors: 'id, model',
      changes: '++seq, id',
      snapshots: 'name',
      recalls: '++id, at',
      meta: 'key',
    })
    old.version(2).stores({ relations: '[from+to+kind], from, to' })
    await old.open()
    const e = await MemoryEngine.open({ name: 'older-tab', ...idb })
    try {
      expect(old.isOpen()).toBe(false)
      expect(SCHEMA_VERSION).toBe(3)
      await e.remember('Written after the upgrade')
    } finally {
      await e.close()
    }
  })
})

import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import type { MemoryEvent } from '../../../../src/core/types.ts'
import { ConnectionState } from '../../../../src/engine/connection-state.ts'
import { optionsHash } from '../../../../src/engine/index/snapshot.ts'
import { IndexUpkeep } from '../../../../src/engine/index/upkeep.ts'
import { WriteQueue } from '../../../../src/engine/write/queue.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'

function upkeep() {
  const events: MemoryEvent[] = []
  const host = {
    db: new EngramDatabase('index-upkeep', { indexedDB: new IDBFactory(), IDBKeyRange }),
    embedder: undefined,
    keywordOptions: {},
    optionsHash: optionsHash({}),
    clock: () => 0,
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    connection: new ConnectionState(),
    queue: new WriteQueue(),
    readyDims: () => 0,
    emit: (event: MemoryEvent) => events.push(event),
    track: () => {},
  }
  return { upkeep: new IndexUpkeep(host), events }
}

describe('IndexUpkeep.recordWrites', () => {
  // The 100k import of issue 11 failed with "Maximum call stack size exceeded": the seqs of one
  // batch were spread into Math.min/Math.max, and a call has room for only so many arguments.
  it('takes a batch of more seqs than a call has room for arguments', () => {
    const { upkeep: s, events } = upkeep()
    const seqs = Array.from({ length: 300_000 }, (_, i) => i + 1)
    expect(() => Math.max(...seqs)).toThrow(RangeError) // the mechanism, at this length
    s.recordWrites(seqs)
    expect(s.lastSeq).toBe(300_000)
    expect(events).toEqual([{ type: 'change', seq: 300_000 }])
    s.cancelIdleSnapshot()
  })
})

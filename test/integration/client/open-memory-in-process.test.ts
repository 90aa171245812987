import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { openMemoryInProcess } from '../../../src/client/open-memory-in-process.ts'
import { InvalidInputError, MemoryClosedError } from '../../../src/core/errors.ts'
import type { MemoryEvent } from '../../../src/core/types.ts'

describe('openMemoryInProcess', () => {
  it('offers the same client API without a worker', async () => {
    const events: MemoryEvent[] = []
    const memory = await openMemoryInProcess(
      { name: `in-process-${process.pid}`, embedder: { kind: 'ngram', dims: 64 }, tabSync: false },
      { indexedDB, IDBKeyRange },
    )
    memory.on((e) => events.push(e))
    expect(memory.runsIn).toBe('process')
    const { id } = await memory.remember('The owner prefers metric units', { tags: ['units'] })
    const { hits } = await memory.recall('metric units')
    expect(hits[0]?.id).toBe(id)
    expect(events).toContainEqual({ type: 'change', seq: expect.any(Number) })
    await expect(memory.remember('')).rejects.toBeInstanceOf(InvalidInputError)
    await memory.close()
    expect(memory.closed).toBe(true)
    await expect(memory.count()).rejects.toBeInstanceOf(MemoryClosedError)
  })

  it('takes the same plain options as a worker: recallLogSize, keyword, limits, writeBatch', async () => {
    const memory = await openMemoryInProcess(
      {
        name: `in-process-options-${process.pid}`,
        embedder: { kind: 'none' },
        tabSync: false,
        recallLogSize: 1,
        keyword: { prefixMinLength: 3 },
        limits: { maxTextBytes: 40 },
      },
      { indexedDB, IDBKeyRange },
    )
    await memory.remember('Kubernetes clusters run in eu-west-1')
    expect((await memory.recall('kuber')).hits).toHaveLength(1)
    await memory.recall('clusters')
    expect(await memory.inspect.recallLog()).toHaveLength(1)
    await expect(memory.remember('x'.repeat(41))).rejects.toMatchObject({ code: 'TEXT_TOO_LONG' })
    await memory.close()
    const bad = await openMemoryInProcess(
      {
        name: `in-process-bad-${process.pid}`,
        embedder: { kind: 'none' },
        writeBatch: 0,
        tabSync: false,
      },
      { indexedDB, IDBKeyRange },
    ).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(InvalidInputError)
    expect(bad).toMatchObject({ code: 'BAD_OPTION', field: 'writeBatch' })
  })
})

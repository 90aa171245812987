/** A fresh in-process memory per test: fake-indexeddb and the deterministic n-gram embedder. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openMemoryInProcess } from '../../../src/client/open-memory-in-process.ts'
import type { MemoryOptions } from '../../../src/host/protocol.ts'

let counter = 0

export function openTestMemory(retrieval: MemoryOptions['retrieval'] = {}): Promise<MemoryClient> {
  return openMemoryInProcess(
    {
      name: `agent-${process.pid}-${++counter}`,
      embedder: { kind: 'ngram' },
      tabSync: false,
      retrieval,
    },
    { indexedDB: new IDBFactory(), IDBKeyRange },
  )
}

/** The text of a tool result. */
export function text(result: { content: { text: string }[] }): string {
  return result.content.map((part) => part.text).join('\n')
}

/** The id a `memory_store` result names. */
export function storedId(result: { content: { text: string }[] }): string {
  const id = /memory (\w{26})/.exec(text(result))?.[1]
  if (!id) throw new Error(`no id in ${JSON.stringify(text(result))}`)
  return id
}

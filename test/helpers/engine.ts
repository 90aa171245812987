import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach } from 'vitest'
import type { Embedder } from '../../src/core/types.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import type { EngineOptions } from '../../src/engine/engine-options.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'

/** A fresh fake IndexedDB per test, so tests never see each other's data. */
export function freshIdb(): Pick<EngineOptions, 'indexedDB' | 'IDBKeyRange'> {
  return { indexedDB: new IDBFactory(), IDBKeyRange }
}

let counter = 0

/**
 * Opens an engine over fake-indexeddb with the deterministic n-gram embedder by default, and
 * without the automatic review (on at every door) unless the test asks for it: a review in a
 * quiet spell would tidy what a test set up.
 */
export async function openTestEngine(
  options: Omit<Partial<EngineOptions>, 'embedder'> & { embedder?: Embedder | null } = {},
): Promise<MemoryEngine> {
  const { embedder, ...rest } = options
  const resolved: EngineOptions = {
    name: `test-${++counter}`,
    ...freshIdb(),
    autoReview: false,
    ...rest,
  }
  if (embedder !== null) resolved.embedder = embedder ?? new NgramEmbedder()
  return MemoryEngine.open(resolved)
}

/**
 * An opener for {@link openTestEngine} whose engines are closed after each test of the file
 * that calls it (at the top level), so a failing test never leaves one open for the next.
 */
export function closingEngines(): typeof openTestEngine {
  const open: MemoryEngine[] = []
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((e) => e.close()))
  })
  return async (...args) => {
    const engine = await openTestEngine(...args)
    open.push(engine)
    return engine
  }
}

/** A clock the test moves by hand: pass `read` as the engine's `clock`. */
export function manualClock(start = Date.UTC(2026, 0, 1)) {
  const clock = { now: start, tick: (ms: number) => (clock.now += ms), read: () => clock.now }
  return clock
}

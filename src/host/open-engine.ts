import { DOOR_DEFAULTS } from '../core/options.ts'
import type { MemoryEvent, MemoryEventListener } from '../core/types.ts'
import type { EngineOptions } from '../engine/engine-options.ts'
import { MemoryEngine } from '../engine/memory-engine.ts'
import { createEmbedder } from './create-embedder.ts'
import type { MemoryOptions, WorkerOpenOptions } from './protocol.ts'
import { type ChannelLike, type LocksLike, TabSync } from './tab-sync.ts'

/** What the host environment supplies; browsers need none of it, Node tests pass IndexedDB. */
export interface EngineEnvironment {
  indexedDB?: IDBFactory
  IDBKeyRange?: typeof IDBKeyRange
  clock?: () => number
  /** Tab-sync transport overrides (tests). */
  channel?: ChannelLike
  locks?: LocksLike
  /**
   * The local PouchDB that `memory.sync.start()` keeps sealed documents in, by its name (Node tests:
   * `new PouchDB(name, { adapter: 'memory' })`). @default PouchDB's IndexedDB adapter
   */
  syncMirror?: (name: string) => object
}

/** An open engine and the tab sync wired to it. */
export interface OpenedEngine {
  engine: MemoryEngine
  sync: TabSync | undefined
  /** Stops tab sync. The engine itself is closed with `engine.close()`. */
  dispose(): void
}

/**
 * Opens a {@link MemoryEngine} from plain options: every {@link MemoryOptions} field passes
 * through as it is; the embedder is built from its choice; tab sync is connected (announce on
 * every committed change, catch up on others', write lock across tabs); events go to
 * `onEvent`. Shared by the memory host (worker side) and the in-process client.
 *
 * The automatic review is on (`DOOR_DEFAULTS.autoReview`, as at every door: once writes have
 * been quiet for 30 s, at most one review a day per database, in one tab), because a memory a
 * person uses through the app or an agent should tidy itself; `autoReview: false` turns it off.
 *
 * @example
 * const { engine } = await openEngine({ name: 'notes', embedder: { kind: 'none' } }, undefined, env)
 * await engine.reviewIfDue()
 * // => true (no review has run on this database yet)
 */
export async function openEngine(
  options: WorkerOpenOptions,
  onEvent: MemoryEventListener | undefined,
  env: EngineEnvironment = {},
): Promise<OpenedEngine> {
  const emit = (event: MemoryEvent): void => {
    try {
      // Over a worker this is a Comlink proxy whose promise nobody needs; a released proxy throws.
      void Promise.resolve(onEvent?.(event)).catch(() => {})
    } catch {}
  }
  const sync =
    (options.tabSync ?? DOOR_DEFAULTS.tabSync) === false
      ? undefined
      : new TabSync(options.name, {
          channel: env.channel,
          locks: env.locks,
          // Replayed changes are news to this context's listeners (a browse list to refresh).
          onCaughtUp: (seq) => emit({ type: 'change', seq }),
        })
  const { embedder: choice, tabSync: _tabSync, ...data } = options
  let engine: MemoryEngine
  try {
    const engineOptions: EngineOptions = {
      ...data,
      indexedDB: env.indexedDB,
      IDBKeyRange: env.IDBKeyRange,
      clock: env.clock,
      embedder: await createEmbedder(choice, emit),
      writeLock: sync?.writeLock,
      onEvent: (event) => {
        if (event.type === 'change') sync?.announce(event.seq)
        if (event.type === 'closed') sync?.close()
        emit(event)
      },
    }
    engine = await MemoryEngine.open(stripUndefined(engineOptions))
  } catch (error) {
    sync?.close()
    throw error
  }
  sync?.attach(engine)
  return { engine, sync, dispose: () => sync?.close() }
}

/** Leaves defaults to the engine: `{ clock: undefined }` must not override `Date.now`. */
function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}

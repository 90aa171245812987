import { SyncStateError } from '../../core/errors.ts'
import type { SyncHandle, SyncOptions } from '../../core/types.ts'

/**
 * Starts a sync of `engine` (the replicator in `src/sync/`, `startSync` of `engram/sync`). The
 * engine cannot import it, so the host plugs it in with `MemoryEngine.useSync`.
 */
export type SyncStarter<Engine> = (engine: Engine, options: SyncOptions) => Promise<SyncHandle>

/**
 * An engine's one sync: the starter plugged in, and the handle running. The rule of one sync
 * at a time lives here, so it holds in process and over the worker alike; `close()` stops it.
 */
export class SyncSlot<Engine> {
  #start: SyncStarter<Engine> | undefined
  #running: SyncHandle | undefined
  #starting = false

  use(start: SyncStarter<Engine>): void {
    this.#start = start
  }

  async start(engine: Engine, name: string, options: SyncOptions): Promise<SyncHandle> {
    if (!this.#start) {
      throw new SyncStateError(
        'SYNC_UNAVAILABLE',
        `memory "${name}" has no replicator: call engine.useSync(startSync) with startSync from engram/sync`,
      )
    }
    if (this.#starting || this.#running) {
      throw new SyncStateError(
        'SYNC_RUNNING',
        `a sync of memory "${name}" is running: stop() it before starting another`,
      )
    }
    this.#starting = true
    try {
      const handle = await this.#start(engine, options)
      this.#running = handle
      const clear = () => {
        if (this.#running === handle) this.#running = undefined
      }
      handle.done.then(clear, clear)
      return handle
    } finally {
      this.#starting = false
    }
  }

  /** Stops the running sync, if any (the engine is closing). */
  async stop(): Promise<void> {
    await this.#running?.stop().catch(() => {})
  }
}

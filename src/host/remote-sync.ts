import type { ProxyMarked } from 'comlink'
import { SyncStateError } from '../core/errors.ts'
import type { SyncHandle, SyncListener, SyncOptions } from '../core/types.ts'
import type { MemoryEngine } from '../engine/memory-engine.ts'
import type { RemoteMemoryApi, RemoteSyncStarted, SyncControl } from './protocol.ts'

/**
 * Plugs the replicator into `engine`. A dynamic import: PouchDB loads only when a memory first
 * syncs, and an app that never syncs needs none of it installed. Where Web Locks exist, a sync
 * holds `engram-sync:<memory>` while it runs, so two tabs of one memory never drive the same
 * mirror: the second gets `SyncStateError` `SYNC_RUNNING`.
 */
export function plugSync(engine: MemoryEngine, mirror?: (name: string) => object): void {
  engine.useSync(async (target, options) => {
    const { startSync } = await import('../sync/sync-session.ts')
    const name = `engram-sync:${target.name}`
    const start = () => startSync(target, mirror ? { ...options, mirror: mirror(name) } : options)
    const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks
    return locks ? underLock(locks, name, start) : start()
  })
}

/** Runs `start` holding lock `name` until the sync it starts is over; refuses if it is held. */
function underLock(
  locks: LockManager,
  name: string,
  start: () => Promise<SyncHandle>,
): Promise<SyncHandle> {
  return new Promise((resolve, reject) => {
    void locks
      .request(name, { ifAvailable: true }, async (lock) => {
        if (!lock) {
          reject(new SyncStateError('SYNC_RUNNING', `another tab is syncing ${name.slice(12)}`))
          return
        }
        let handle: SyncHandle
        try {
          handle = await start()
        } catch (error) {
          reject(error)
          return
        }
        resolve(handle)
        await handle.done.catch(() => {})
      })
      .catch(reject)
  })
}

/**
 * `sync` and `syncControl` as the host exposes them: the handle stays here, keyed by a number
 * the page's handle names in each control call; status changes go to the page's proxied
 * listener, released once the sync is over.
 */
export function remoteSync(
  engine: MemoryEngine,
  release: (proxy: unknown) => void,
): Pick<RemoteMemoryApi, 'sync' | 'syncControl'> {
  const handles = new Map<number, SyncHandle>()
  let next = 0
  return {
    async sync(options: SyncOptions, onStatus?: SyncListener & ProxyMarked) {
      let handle: SyncHandle
      try {
        handle = await engine.sync(options)
      } catch (error) {
        release(onStatus)
        throw error
      }
      const id = ++next
      handles.set(id, handle)
      const off = handle.on((status) => {
        try {
          // A proxy call's promise: nobody needs it, and a page that went away rejects it.
          void Promise.resolve(onStatus?.(status)).catch(() => {})
        } catch {}
      })
      const over = () => {
        off()
        handles.delete(id)
        release(onStatus)
      }
      handle.done.then(over, over)
      return { id, status: handle.status } satisfies RemoteSyncStarted
    },
    async syncControl(id: number, control: SyncControl) {
      const handle = handles.get(id)
      // A handle already over: stop and flush have nothing left to do.
      if (!handle) return undefined
      await handle[control]()
      return handle.status
    },
  }
}

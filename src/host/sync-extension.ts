/**
 * Multi-device sync as an extension of the memory (PGlite's model: a feature is a namespace
 * with a host half and a page half, not more methods on the core contract). The engine knows
 * nothing of it:
 *
 * - the **host half** ({@link syncHost}) runs beside the engine, in the worker or on this
 *   thread: it loads the replicator (`src/sync/`) on first use, holds the one running sync and
 *   its handle, and is closed before the engine;
 * - the **page half** ({@link syncPage}) is what a client shows as `memory.sync`: its handle
 *   hears status changes through a listener and names the host's handle by number.
 *
 * Every client door (`openMemory`, `openMemoryInProcess`, `connectMemory`, and `embedMemory`,
 * where other origins are refused it) opens with this extension, in process too (the page half
 * then calls the host half directly), so `memory.sync.start(options)` is one path everywhere.
 * An engine opened by itself (`engram/engine`) has no `sync`: call `startSync(engine, options)`
 * from `engram/sync`.
 */
import * as Comlink from 'comlink'
import { reviveError, SyncStateError } from '../core/errors.ts'
import type { SyncApi, SyncHandle, SyncListener, SyncOptions, SyncStatus } from '../core/types.ts'
import type { MemoryEngine } from '../engine/memory-engine.ts'
import type { RemoteSyncApi, RemoteSyncStarted, SyncControl } from './protocol.ts'

/** The host half, as the host keeps it: the port's methods, and `close` for the host alone. */
export interface SyncHost extends RemoteSyncApi {
  /** Stops the running sync, if any: the host calls it before it closes the engine. */
  close(): Promise<void>
}

/** How a page-half call reaches the host: guarded against the endpoint's death, errors revived. */
export type SyncSend = <T>(call: () => Promise<T>) => Promise<T>

/** The sync extension: its two halves, one shape for every door. */
export interface SyncExtension {
  readonly name: 'sync'
  host(engine: MemoryEngine, mirror?: (name: string) => object): SyncHost
  page(host: RemoteSyncApi, send: SyncSend): SyncApi
}

export const syncExtension: SyncExtension = {
  name: 'sync',
  host: syncHost,
  page: syncPage,
}

const FINISHED = new Set<SyncStatus['state']>(['complete', 'stopped', 'error'])

/**
 * The host half for `engine`. One sync at a time, in process and over the worker alike: a
 * second `start` before the first is over throws `SyncStateError` `SYNC_RUNNING`. PouchDB
 * loads only when a memory first syncs (a dynamic import), so an app that never syncs needs
 * none of it. Where Web Locks exist, a sync holds `engram-sync:<memory>` while it runs, so two
 * tabs of one memory never drive the same mirror. `mirror` names the local PouchDB (Node tests).
 */
export function syncHost(engine: MemoryEngine, mirror?: (name: string) => object): SyncHost {
  const handles = new Map<number, SyncHandle>()
  let next = 0
  let starting = false
  const begin = async (options: SyncOptions): Promise<SyncHandle> => {
    if (starting || handles.size > 0) {
      throw new SyncStateError(
        'SYNC_RUNNING',
        `a sync of memory "${engine.name}" is running: stop() it before starting another`,
      )
    }
    starting = true
    try {
      const { startSync } = await import('../sync/sync-session.ts')
      const name = `engram-sync:${engine.name}`
      const start = () => startSync(engine, mirror ? { ...options, mirror: mirror(name) } : options)
      const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks
      return await (locks ? underLock(locks, name, start) : start())
    } finally {
      starting = false
    }
  }
  return {
    async start(options, onStatus) {
      let handle: SyncHandle
      try {
        handle = await begin(options)
      } catch (error) {
        release(onStatus)
        throw error
      }
      const id = ++next
      handles.set(id, handle)
      const off = handle.on((status) => {
        try {
          // Over a port a proxy call's promise: nobody needs it, and a page that went away rejects it.
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
    async control(id: number, control: SyncControl) {
      const handle = handles.get(id)
      // A handle already over: stop and flush have nothing left to do.
      if (!handle) return undefined
      await handle[control]()
      return handle.status
    },
    async close() {
      await Promise.all([...handles.values()].map((handle) => handle.stop().catch(() => {})))
    },
  }
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
 * The page half: `start` begins a sync in the host and returns its handle on this side. Status
 * changes arrive through a listener (so `status`, `on` and `done` need no round trip), and
 * `flush`, `compact` and `stop` are `control` calls naming the host's handle. A listener call
 * may overtake the answer to `start`, so the listener exists before the call is made.
 */
export function syncPage(host: RemoteSyncApi, send: SyncSend): SyncApi {
  return { start: (options) => startOnHost(host, options, send) }
}

async function startOnHost(
  host: RemoteSyncApi,
  options: SyncOptions,
  send: SyncSend,
): Promise<SyncHandle> {
  const listeners = new Set<SyncListener>()
  let status: SyncStatus | undefined
  let finish!: (status: SyncStatus) => void
  let fail!: (error: unknown) => void
  const done = new Promise<SyncStatus>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  done.catch(() => {})
  const hear = (next: SyncStatus): void => {
    status = next
    for (const listener of listeners) {
      try {
        listener({ ...next })
      } catch {
        // A listener's failure must not stop the others.
      }
    }
    // The host's `done` rule, kept on this side: `error` is the end, and the catalogue class.
    if (next.state === 'error') fail(reviveError({ name: 'Error', message: '', ...next.error }))
    else if (FINISHED.has(next.state)) finish({ ...next })
  }
  const started = await send(() => host.start(options, Comlink.proxy(hear)))
  status ??= started.status
  const control = async (what: SyncControl): Promise<void> => {
    const after = await send(() => host.control(started.id, what))
    if (after) status = after
    if (what === 'stop') await done.catch(() => {})
  }
  return {
    get status() {
      return { ...status! }
    },
    on(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    flush: () => control('flush'),
    compact: () => control('compact'),
    stop: () => control('stop'),
    done,
  }
}

/** Releases a Comlink proxy (the page's listener); a plain function in process has nothing to release. */
export function release(proxy: unknown): void {
  const releaseProxy = (proxy as Partial<Comlink.ProxyMethods> | undefined)?.[Comlink.releaseProxy]
  releaseProxy?.()
}

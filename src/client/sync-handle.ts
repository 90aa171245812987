import * as Comlink from 'comlink'
import { reviveError } from '../core/errors.ts'
import type { SyncHandle, SyncListener, SyncOptions, SyncStatus } from '../core/types.ts'
import type { RemoteMemoryApi, SyncControl } from '../host/protocol.ts'

const FINISHED = new Set<SyncStatus['state']>(['complete', 'stopped', 'error'])

/** How a call reaches the host: guarded against the endpoint's death, errors revived. */
type Send = <T>(call: () => Promise<T>) => Promise<T>

/**
 * Starts a sync in the host and returns its handle on this side: status changes arrive through
 * a proxied listener (so `status`, `on` and `done` need no round trip), and `flush`, `compact`
 * and `stop` are `syncControl` calls naming the host's handle. A listener call may overtake
 * the answer to `sync`, so the listener exists before the call is made.
 */
export async function startRemoteSync(
  remote: Comlink.Remote<RemoteMemoryApi>,
  options: SyncOptions,
  send: Send,
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
  const started = await send(() => remote.sync(options, Comlink.proxy(hear)))
  status ??= started.status
  const control = async (what: SyncControl): Promise<void> => {
    const after = await send(() => remote.syncControl(started.id, what))
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

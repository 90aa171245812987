import type { Memory, MemoryEvent, MemoryEventListener } from '../core/types.ts'
import type { RemoteMemoryApi } from '../host/protocol.ts'
import { releaseProxy } from './origin-namespaces.ts'
import type { OriginAccess } from './origin-scope.ts'

/**
 * The events an origin hears as they come: they describe the model, which is the same whatever
 * the memory holds. `backfill`, `reembed` and `import` count the whole memory, so they are not
 * told; `change` is told in the origin's own terms (see {@link originEvents}).
 */
const AS_THEY_COME: ReadonlySet<MemoryEvent['type']> = new Set([
  'model-progress',
  'model-ready',
  'model-failed',
  'closed',
])

/** Largest `list` page, to read a namespace in as few calls as it allows. */
const PAGE = 1000

/** The events of one origin's connection. */
export interface OriginEvents {
  /** What the engine is opened with: hears everything, tells the origin its part. */
  readonly listener: MemoryEventListener
  /** The memory is open: what its namespaces hold now is what later changes are measured against. */
  attach(api: RemoteMemoryApi): void
  /** Tells the origin nothing more, and releases its listener. */
  stop(): void
}

/**
 * Scopes a memory's events to one origin. A `change` (some context committed up to a `seq`)
 * reaches it only when its namespaces hold something else than before (a memory written,
 * updated, rated or forgotten there, by anyone), numbered by its own count from 1, so it learns
 * neither of the owner's activity nor how much of it there was. Each event is told only after
 * the allow-list still says yes; once it says no (revoked, denied), the origin hears nothing
 * again, not even after a new grant (a new `embedMemory` starts a new connection).
 *
 * Reading the namespaces on every change costs a `list` of them per write anywhere in the
 * memory; changes heard while one is read are answered by one more read, not one each.
 *
 * @example
 * const events = originEvents(access, originListener)
 * const api = await host.open(options, events.listener)
 * events.attach(api)
 * // the owner writes in 'default' => the origin hears nothing
 * // the origin remembers => { type: 'change', seq: 1 }
 */
export function originEvents(
  access: OriginAccess,
  listener: MemoryEventListener | undefined,
): OriginEvents {
  let api: RemoteMemoryApi | undefined
  let stopped = listener === undefined
  let told = 0
  let held: string | undefined
  let looking = false
  let tail: Promise<void> = Promise.resolve()

  const stop = (): void => {
    if (stopped) return
    stopped = true
    releaseProxy(listener)
  }
  const tell = (event: MemoryEvent): void => {
    if (stopped) return
    try {
      void Promise.resolve(listener?.(event)).catch(() => {})
    } catch {}
  }
  /** Runs `task` after the events before it, once the allow-list has said yes again. */
  const inTurn = (task: (namespaces: string[]) => Promise<void>): void => {
    tail = tail.then(async () => {
      if (stopped) return
      let namespaces: string[]
      try {
        namespaces = await access.namespaces()
      } catch {
        return stop()
      }
      // A memory locked or closed meanwhile cannot be read: this change goes untold, the next is not.
      await task(namespaces).catch(() => {})
    })
  }
  const look = (): void => {
    if (looking || !api) return
    looking = true
    const memory = api
    inTurn(async (namespaces) => {
      // Cleared before reading, so a change committed during the read is looked at again.
      looking = false
      const now = await contents(memory, namespaces)
      if (now === held) return
      held = now
      tell({ type: 'change', seq: ++told })
    })
  }

  return {
    listener(event) {
      if (stopped) return
      if (event.type === 'change') look()
      else if (AS_THEY_COME.has(event.type)) inTurn(async () => tell(event))
    },
    attach(memory) {
      inTurn(async (namespaces) => {
        api = memory
        held = await contents(memory, namespaces)
      })
    },
    stop,
  }
}

/** What the namespaces hold, as far as a change is concerned: each memory's id and versioned fields. */
async function contents(api: RemoteMemoryApi, namespaces: readonly string[]): Promise<string> {
  const lines: string[] = []
  for (const namespace of namespaces) {
    let cursor: string | undefined
    do {
      const page = await api.list({ namespace, limit: PAGE, ...(cursor ? { cursor } : {}) })
      for (const memory of page.items) lines.push(fingerprint(memory))
      cursor = page.cursor
    } while (cursor)
  }
  return lines.join('\n')
}

/** The fields a write, a confirmation, feedback or review changes; recall counters are left out. */
function fingerprint(m: Memory): string {
  return JSON.stringify([
    m.id,
    m.namespace,
    m.updatedAt,
    m.confirmedAt,
    m.confirmations,
    m.confidence,
    m.needsReview ?? false,
    m.archivedAt ?? 0,
    m.expiresAt ?? 0,
  ])
}

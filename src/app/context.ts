import type { AtRestSecret, MemoryClient, MemoryEvent } from '../index.ts'
import type { HighlightRange } from './highlight-view.ts'
import { wipePlaintext } from './plaintext.ts'
import type { AppSettings } from './settings.ts'

type Listener<T> = (value: T) => void

/** Opens a memory by name, with its passphrase or key when it is (or becomes) encrypted. */
export type OpenMemory = (name: string, encryption?: AtRestSecret) => Promise<MemoryClient>

/** Which page the Pages card is to show, and optionally which chunk of it to scroll to and mark. */
export interface OpenPage {
  pageId: string
  /** UTF-16 offsets of the chunk in the page (`RecallPageRef.start` / `end`). */
  start?: number
  end?: number
  /** Offsets into the chunk's text, as `RecallHit.highlights`. */
  highlights?: readonly HighlightRange[]
}

/**
 * The one channel between cards: each signal's name with what it carries. A card tells the
 * others with `ctx.emit(name, detail)` and hears them with `ctx.on(name, listener)`.
 */
export interface AppSignals {
  /**
   * Something added, changed or removed memories (here or in another tab). Bursts (an import,
   * a backfill, another tab's batch) reach the listeners as one signal.
   */
  changed: undefined
  /**
   * The texts on screen are no longer to be shown (the memory locked, or another took its
   * place): every marked plaintext element is wiped (`plaintext.ts`) before the listeners drop
   * what they keep besides (an open editor, a page view).
   */
  locked: undefined
  /** Another memory took the shown one's place ({@link AppContext.replace}). */
  replaced: undefined
  /** Show this page in the Pages card (from a recall hit or a Browse row). */
  'open-page': OpenPage
  /** A recall was shown; the detail is its query. */
  recalled: string
}

/** Signals sent with no detail. */
type Bare = {
  [K in keyof AppSignals]: AppSignals[K] extends undefined ? K : never
}[keyof AppSignals]

/** What every panel gets: the memory, the settings, the memory's events and the channel. */
export interface AppContext {
  /**
   * The memory the app shows now. Read it at each call: another memory can take its place
   * ({@link replace}), so a panel never keeps it.
   */
  readonly memory: MemoryClient
  settings: AppSettings
  /** Opens a memory the way the app opens its own (same embedder, same event bus). */
  open: OpenMemory
  onEvent(listener: Listener<MemoryEvent>): void
  /** Tells every card listening to `signal` (see {@link AppSignals}). */
  emit<K extends Bare>(signal: K): void
  emit<K extends keyof AppSignals>(signal: K, detail: AppSignals[K]): void
  on<K extends keyof AppSignals>(signal: K, listener: Listener<AppSignals[K]>): void
  /**
   * Shows `memory`, named `name`, in place of the current one (already closed by the caller):
   * the screen is wiped as on a lock, then every panel refreshes from the new memory.
   */
  replace(memory: MemoryClient, name: string): void
}

/** Events flow from the worker before `openMemory` resolves, so the bus exists first. */
export class EventBus {
  readonly #listeners = new Set<Listener<MemoryEvent>>()
  /** Events seen before anyone listened, replayed to the first listeners. */
  readonly #early: MemoryEvent[] = []

  readonly emit = (event: MemoryEvent): void => {
    if (this.#listeners.size === 0) this.#early.push(event)
    for (const listener of this.#listeners) listener(event)
  }

  on(listener: Listener<MemoryEvent>): void {
    this.#listeners.add(listener)
    for (const event of this.#early) listener(event)
  }
}

export function createContext(
  memory: MemoryClient,
  settings: AppSettings,
  bus: EventBus,
  open: OpenMemory,
): AppContext {
  let current = memory
  const listeners: { [K in keyof AppSignals]?: Set<Listener<AppSignals[K]>> } = {}
  const deliver = <K extends keyof AppSignals>(signal: K, detail: AppSignals[K]): void => {
    for (const listener of listeners[signal] ?? []) listener(detail)
  }
  let pending: ReturnType<typeof setTimeout> | undefined
  const emit = <K extends keyof AppSignals>(signal: K, detail?: AppSignals[K]): void => {
    if (signal === 'changed') {
      clearTimeout(pending)
      pending = setTimeout(() => deliver('changed', undefined), 50)
      return
    }
    if (signal === 'locked') wipePlaintext()
    deliver(signal, detail as AppSignals[K])
  }
  const on = <K extends keyof AppSignals>(signal: K, listener: Listener<AppSignals[K]>): void => {
    const set: Set<Listener<AppSignals[K]>> = listeners[signal] ?? new Set()
    listeners[signal] = set as (typeof listeners)[K]
    set.add(listener)
  }
  bus.on((event) => {
    if (event.type === 'change') emit('changed')
  })
  return {
    get memory() {
      return current
    },
    settings,
    open,
    onEvent: (listener) => bus.on(listener),
    emit,
    on,
    replace(next, name) {
      emit('locked')
      current = next
      settings.memory = name
      emit('replaced')
      emit('changed')
    },
  }
}

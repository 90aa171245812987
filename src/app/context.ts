import type { MemoryClient, MemoryEvent } from '../index.ts'
import { wipePlaintext } from './plaintext.ts'
import type { AppSettings } from './settings.ts'

type Listener<T> = (value: T) => void

/** What every panel gets: the memory, the settings, events, and a "memories changed" signal. */
export interface AppContext {
  memory: MemoryClient
  settings: AppSettings
  onEvent(listener: Listener<MemoryEvent>): void
  /** Something added, changed or removed memories (here or in another tab). */
  changed(): void
  onChanged(listener: () => void): void
  /**
   * The memory was locked: every marked plaintext element is wiped (`plaintext.ts`), then the
   * listeners drop what they keep besides (an open editor, a page view).
   */
  locked(): void
  onLocked(listener: () => void): void
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
): AppContext {
  const changeListeners = new Set<() => void>()
  const lockListeners = new Set<() => void>()
  let pending: ReturnType<typeof setTimeout> | undefined
  const changed = (): void => {
    // Coalesces bursts (an import, a backfill, another tab's batch) into one refresh.
    clearTimeout(pending)
    pending = setTimeout(() => {
      for (const listener of changeListeners) listener()
    }, 50)
  }
  bus.on((event) => {
    if (event.type === 'change') changed()
  })
  return {
    memory,
    settings,
    onEvent: (listener) => bus.on(listener),
    changed,
    onChanged: (listener) => changeListeners.add(listener),
    locked: () => {
      wipePlaintext()
      for (const listener of lockListeners) listener()
    },
    onLocked: (listener) => lockListeners.add(listener),
  }
}

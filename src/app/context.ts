import type { AtRestSecret, MemoryClient, MemoryEvent } from '../index.ts'
import { wipePlaintext } from './plaintext.ts'
import type { AppSettings } from './settings.ts'

type Listener<T> = (value: T) => void

/** Opens a memory by name, with its passphrase or key when it is (or becomes) encrypted. */
export type OpenMemory = (name: string, encryption?: AtRestSecret) => Promise<MemoryClient>

/** What every panel gets: the memory, the settings, events, and a "memories changed" signal. */
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
  /** Something added, changed or removed memories (here or in another tab). */
  changed(): void
  onChanged(listener: () => void): void
  /**
   * The texts on screen are no longer to be shown (the memory locked, or another took its
   * place): every marked plaintext element is wiped (`plaintext.ts`), then the listeners drop
   * what they keep besides (an open editor, a page view).
   */
  locked(): void
  onLocked(listener: () => void): void
  /**
   * Shows `memory`, named `name`, in place of the current one (already closed by the caller):
   * the screen is wiped as on a lock, then every panel refreshes from the new memory.
   */
  replace(memory: MemoryClient, name: string): void
  onReplaced(listener: () => void): void
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
  const changeListeners = new Set<() => void>()
  const lockListeners = new Set<() => void>()
  const replaceListeners = new Set<() => void>()
  let pending: ReturnType<typeof setTimeout> | undefined
  const changed = (): void => {
    // Coalesces bursts (an import, a backfill, another tab's batch) into one refresh.
    clearTimeout(pending)
    pending = setTimeout(() => {
      for (const listener of changeListeners) listener()
    }, 50)
  }
  const locked = (): void => {
    wipePlaintext()
    for (const listener of lockListeners) listener()
  }
  bus.on((event) => {
    if (event.type === 'change') changed()
  })
  return {
    get memory() {
      return current
    },
    settings,
    open,
    onEvent: (listener) => bus.on(listener),
    changed,
    onChanged: (listener) => changeListeners.add(listener),
    locked,
    onLocked: (listener) => lockListeners.add(listener),
    replace(next, name) {
      locked()
      current = next
      settings.memory = name
      for (const listener of replaceListeners) listener()
      changed()
    },
    onReplaced: (listener) => replaceListeners.add(listener),
  }
}

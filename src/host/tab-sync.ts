import { syncChannelName, type TabSyncMessage, writeLockName } from './protocol.ts'

/** What tab sync needs from the engine: replay the change log past what it has applied. */
export interface CatchUpTarget {
  catchUp(): Promise<unknown>
}

/** The parts of `BroadcastChannel` tab sync uses; injectable for tests. */
export interface ChannelLike {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  close(): void
}

/** The part of `navigator.locks` tab sync uses. */
export interface LocksLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>
}

export interface TabSyncOptions {
  /** @default new BroadcastChannel(syncChannelName(memory)) where BroadcastChannel exists */
  channel?: ChannelLike
  /** @default navigator.locks where it exists; without one, writes are serialised per engine only */
  locks?: LocksLike
  /** Called after a catch-up applied another context's changes, with the `seq` heard. */
  onCaughtUp?: (seq: number) => void
  /** Called when a catch-up fails (the database closed, say). @default ignore */
  onError?: (error: unknown) => void
}

/**
 * Keeps one memory consistent across tabs (and extension pages) of an origin. Each context
 * announces the change-log `seq` it committed on a BroadcastChannel; a context that hears a
 * higher `seq` asks its engine to catch up from the `changes` table. Writers take one Web Lock
 * per memory, so a dedup check and its insert never interleave with another tab's.
 *
 * Announcements are only hints: the change log in IndexedDB is the truth, so a lost or
 * reordered message costs latency, never consistency (the next write or announcement catches up).
 */
export class TabSync {
  readonly #memory: string
  readonly #id = Math.random().toString(36).slice(2)
  readonly #channel: ChannelLike | undefined
  readonly #locks: LocksLike | undefined
  readonly #onCaughtUp: (seq: number) => void
  readonly #onError: (error: unknown) => void
  #target: CatchUpTarget | undefined
  #seen = 0
  #running: Promise<void> | undefined
  #again = false
  #closed = false

  constructor(memory: string, options: TabSyncOptions = {}) {
    this.#memory = memory
    this.#channel = options.channel ?? openChannel(syncChannelName(memory))
    this.#locks = options.locks ?? globalLocks()
    this.#onCaughtUp = options.onCaughtUp ?? (() => {})
    this.#onError = options.onError ?? (() => {})
    this.#channel?.addEventListener('message', (event) => this.#onMessage(event.data))
  }

  /** The engine to catch up; announcements heard before it is attached are replayed then. */
  attach(target: CatchUpTarget): void {
    this.#target = target
    if (this.#again) this.#schedule()
  }

  /** Tells the other contexts that this one committed up to `seq`. */
  announce(seq: number): void {
    if (this.#closed || seq <= this.#seen) return
    this.#seen = seq
    const message: TabSyncMessage = { type: 'seq', seq, from: this.#id }
    this.#channel?.postMessage(message)
  }

  /**
   * Runs `task` holding this memory's cross-tab write lock (or directly where there are no Web
   * Locks). Pass as the engine's write-lock hook.
   */
  readonly writeLock = <T>(task: () => Promise<T>): Promise<T> => {
    if (!this.#locks || this.#closed) return task()
    return this.#locks.request(writeLockName(this.#memory), task)
  }

  /** Resolves when no catch-up is running or queued. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#target = undefined
    this.#channel?.close()
  }

  #onMessage(data: unknown): void {
    if (this.#closed || !isSyncMessage(data) || data.from === this.#id) return
    if (data.seq <= this.#seen) return
    this.#seen = data.seq
    this.#schedule()
  }

  /** One catch-up at a time; announcements during one cause exactly one more. */
  #schedule(): void {
    this.#again = true
    if (this.#running || !this.#target) return
    this.#running = (async () => {
      while (this.#again && this.#target) {
        this.#again = false
        const seq = this.#seen
        try {
          const replayed = await this.#target.catchUp()
          if (typeof replayed !== 'number' || replayed > 0) this.#onCaughtUp(seq)
        } catch (error) {
          this.#onError(error)
        }
      }
    })().finally(() => {
      this.#running = undefined
    })
  }
}

function isSyncMessage(data: unknown): data is TabSyncMessage {
  if (!data || typeof data !== 'object') return false
  const m = data as Partial<TabSyncMessage>
  return m.type === 'seq' && typeof m.seq === 'number' && typeof m.from === 'string'
}

function openChannel(name: string): ChannelLike | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined
  const channel = new BroadcastChannel(name)
  // Node keeps the process alive while a channel is open; a memory should not.
  ;(channel as { unref?: () => void }).unref?.()
  return channel
}

function globalLocks(): LocksLike | undefined {
  const nav = (globalThis as { navigator?: { locks?: LocksLike } }).navigator
  return nav?.locks
}

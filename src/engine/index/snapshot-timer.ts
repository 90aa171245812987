import { IDLE_SNAPSHOT_MS } from '../../core/options.ts'

/**
 * A snapshot that is due waits for this long a spell without a write or a recall: serialising
 * and storing the indexes blocks the thread for time in proportion to the store (0.4 s at 10k
 * in Chromium), which must not land inside an answer (issue 11).
 */
export const QUIET_SNAPSHOT_MS = 250
/**
 * A flush of the recall counters alone schedules the idle snapshot when the last one is at least
 * this old: enough that a tab killed after recalls rarely leaves the next open a full read.
 */
export const COUNTERS_SNAPSHOT_GAP_MS = 60_000
/**
 * A due snapshot deferred this long by a busy engine runs anyway, between two calls; longer
 * when the last one took long (see {@link SNAPSHOT_SHARE_OF_DEFER}).
 */
export const MAX_SNAPSHOT_DEFER_MS = 60_000
/**
 * A busy engine's snapshots take at most this share of its time: a due one is deferred at least
 * the last one's duration over it. A long import into a large store otherwise rebuilt every
 * index each minute, and the save grew with the store (27% of a 20 MB import's worker time).
 */
export const SNAPSHOT_SHARE_OF_DEFER = 0.05

/** What the timer asks of the index sync that owns it. */
export interface SnapshotTimerHost {
  /** The engine is closing: no more timers. */
  windingDown(): boolean
  /** Something changed since the last snapshot. */
  stale(): boolean
  /** Queues a snapshot. */
  save(): void
}

/**
 * When to snapshot: once writes and recalls have paused (briefly when one is due, for
 * `IDLE_SNAPSHOT_MS` otherwise), so a tab that is killed rather than closed still restarts from
 * a recent snapshot, and no answer waits behind one. A timer that finds the engine was busy
 * meanwhile waits again; one due for {@link SnapshotTimer.maxDeferMs} is queued at once.
 */
export class SnapshotTimer {
  readonly #host: SnapshotTimerHost
  #timer: ReturnType<typeof setTimeout> | undefined
  /** Bumped by every write and recall, so a pending timer can tell the engine was busy. */
  #activity = 0
  /** When a snapshot first became due (`performance.now()`), until one is saved. */
  #dueSince: number | undefined
  /** How long the last snapshot took, ms. */
  #lastSaveMs = 0
  /** When an overdue snapshot was last queued (`performance.now()`), until one is saved. */
  #forcedAt: number | undefined

  constructor(host: SnapshotTimerHost) {
    this.#host = host
  }

  /** Compared by background work (the recall counters too) to find a quiet spell. */
  get activity(): number {
    return this.#activity
  }

  noteActivity(): void {
    this.#activity++
  }

  /** Enough changed for a snapshot: it runs at the next quiet spell. */
  markDue(): void {
    this.#dueSince ??= performance.now()
  }

  /** A snapshot was saved, taking `ms`. */
  markSaved(ms = 0): void {
    this.#dueSince = undefined
    this.#forcedAt = undefined
    this.#lastSaveMs = ms
  }

  /** How long a due snapshot may wait for a quiet spell before it runs anyway. */
  get maxDeferMs(): number {
    return Math.max(MAX_SNAPSHOT_DEFER_MS, this.#lastSaveMs / SNAPSHOT_SHARE_OF_DEFER)
  }

  schedule(): void {
    this.cancel()
    if (this.#host.windingDown()) return
    const dueSince = this.#dueSince
    const now = performance.now()
    if (dueSince !== undefined && now - dueSince >= this.maxDeferMs) {
      // Queued once: it waits in the write queue behind the writes that keep calling this, and
      // queuing one a write saved the whole indexes again right after (10 rows later, at 23k).
      // One that failed is queued again after another deferral.
      if (this.#forcedAt === undefined || now - this.#forcedAt >= this.maxDeferMs) {
        this.#forcedAt = now
        this.#host.save()
      }
      return
    }
    const seen = this.#activity
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined
        if (!this.#host.stale()) return
        if (this.#activity !== seen) this.schedule()
        else this.#host.save()
      },
      dueSince === undefined ? IDLE_SNAPSHOT_MS : QUIET_SNAPSHOT_MS,
    )
    // Node: a pending snapshot must not keep a script alive.
    ;(this.#timer as { unref?: () => void }).unref?.()
  }

  cancel(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }
}

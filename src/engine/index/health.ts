import type { EngramError } from '../../core/errors.ts'
import { INDEX_RETRY_MS } from '../../core/options.ts'
import type { IndexFailure } from '../../core/types.ts'

/**
 * Whether the derived indexes can be used: fine, or failed to restore (see {@link IndexFailure}).
 * While failed, recall reads the recency window and writes skip the catch-up that would need the
 * indexes; a rebuild is tried again at most every `INDEX_RETRY_MS`.
 */
export class IndexHealth {
  #failure: IndexFailure | null = null

  /** The failure as `inspect.stats()` reports it, or undefined while the indexes are fine. */
  get failure(): IndexFailure | undefined {
    return this.#failure ? structuredClone(this.#failure) : undefined
  }

  get failed(): boolean {
    return this.#failure !== null
  }

  /** Whether a rebuild should be tried now: failed, and the last try is `INDEX_RETRY_MS` old. */
  retryDue(now: number): boolean {
    return this.#failure !== null && now - this.#failure.lastTriedAt >= INDEX_RETRY_MS
  }

  /** Records a failed restore or rebuild: `raw` as thrown, `mapped` its catalogue error. */
  fail(raw: unknown, mapped: EngramError, now: number): void {
    const name = raw instanceof Error ? raw.name : mapped.name
    const message = raw instanceof Error ? raw.message : mapped.message
    this.#failure = {
      state: 'failed',
      error: { name, code: mapped.code, message },
      since: this.#failure?.since ?? now,
      lastTriedAt: now,
      attempts: (this.#failure?.attempts ?? 0) + 1,
    }
  }

  /** A rebuild succeeded: the indexes hold the tables again. */
  recovered(): void {
    this.#failure = null
  }
}

/**
 * The defaults every door applies, in one table: `openMemory`, `openMemoryInProcess`,
 * `connectMemory` and `embedMemory` (through the host they reach, `openEngine`) and
 * `MemoryEngine.open` alike. Gathered by `core/options.ts`.
 */

/**
 * - `autoReview: {}`: the memory reviews itself once writes have been quiet for 30 s, at most
 *   once a day per database, in one tab; `autoReview: false` turns it off, `{ idleMs }` tunes it.
 * - `tabSync: true`: a host keeps the tabs of one origin consistent (the engine alone has no tabs).
 *
 * @example
 * await MemoryEngine.open({ name: 'm', autoReview: false })
 * // => an engine that reviews only when `review()` is called
 */
export const DOOR_DEFAULTS: Readonly<{
  autoReview: Readonly<{ idleMs?: number }>
  tabSync: boolean
}> = Object.freeze({ autoReview: Object.freeze({}), tabSync: true })

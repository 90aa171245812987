/**
 * Defaults of the time features: the soft boost from a query's time words, the neighbours a hit
 * may bring (`RecallOptions.context`) and the timeline's pages.
 */

import type { TimeSettings } from '../contract/recall.ts'

export type { TimeSettings } from '../contract/recall.ts'

/**
 * The time boost (`RecallOptions.time`): `factor` is what a memory whose time lies in a window
 * the query names is scored by. 1.3 is a little above the recency and confidence boosts (1.2),
 * so a dated match beats an undated one of equal words, and short of what a keyword match
 * adds: the words still decide between a right and a wrong memory. Not tuned:
 * `scripts/eval/time-windows.ts --factor` gives the same scores from 1.1 to 2, its events tying
 * on their words. The calendar is UTC unless a recall or the
 * engine's `recallDefaults` say otherwise (`offsetMinutes`).
 */
export const DEFAULT_TIME: Readonly<TimeSettings> = Object.freeze({ factor: 1.3, offsetMinutes: 0 })

/** Most neighbours on each side a hit may bring (`RecallOptions.context`, 0..10). */
export const MAX_CONTEXT = 10

/** The timeline's page size when none is given, and the most one page may hold. */
export const DEFAULT_TIMELINE = Object.freeze({ limit: 50, maxLimit: 1000 })

/** Most types a recall or a timeline may filter on. */
export const MAX_TYPES = 64

/**
 * Time read from a memory's own words: "I went yesterday" in a conversation of 8 May 2023
 * happened on 7 May. For importers, which know when each message was written; and the signal a
 * "when …?" question looks for.
 */

import { badOption } from '../check-options.ts'
import { findTimeWindows, type TimeWindowOptions } from './find-time-windows.ts'

/** When a memory's text says its event happened: the `happenedAt` / `happenedUntil` pair. */
export interface MentionedTime {
  /** First ms of the first time expression in the text. */
  happenedAt: number
  /** Last ms of it, when it spans more than one day ("last week", "in 2022"). */
  happenedUntil?: number
  /** The words it came from. */
  text: string
}

/**
 * The time the first time expression of `text` names, resolved against `writtenAt` (when the
 * text was written: a message's date), or null when the text names none.
 *
 * @example
 * resolveMentionedTime('I went to a support group yesterday', Date.UTC(2023, 4, 8))
 * // => { happenedAt: Date.UTC(2023, 4, 7), text: 'yesterday' }
 */
export function resolveMentionedTime(
  text: string,
  writtenAt: number,
  options: TimeWindowOptions = {},
): MentionedTime | null {
  if (typeof text !== 'string') throw badOption('text', 'a string', text)
  const [first] = findTimeWindows(text, writtenAt, options)
  if (!first) return null
  const days = (first.end - first.start) / 86_400_000
  return days > 1
    ? { happenedAt: first.start, happenedUntil: first.end - 1, text: first.text }
    : { happenedAt: first.start, text: first.text }
}

// "when", "what time/date/day/month/year", "how long ago", "which year": the question asks for
// a time, so the memory that answers it likely names one.
const ASKS_WHEN =
  /\b(?:when|what (?:time|date|day|week|month|year|season)|which (?:day|week|month|year|season)|how long ago|since when)\b/i

/**
 * Does the query ask for a time ("When did Caroline go to the support group?")? Such a query
 * names no window itself; the memory answering it usually does.
 *
 * @example
 * [asksWhen('When did we ship v2?'), asksWhen('what did we ship?')] // => [true, false]
 */
export function asksWhen(query: string): boolean {
  return ASKS_WHEN.test(query)
}

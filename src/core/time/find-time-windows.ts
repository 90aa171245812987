/**
 * Finds the time expressions in a query and resolves each to a window of whole local days.
 * English only; the rules are in docs/time.md ("The parser's rules").
 */

import { badOption } from '../check-options.ts'
import { bareYear, dayMonth, decade, isoDate, monthName, partOf, season } from './absolute.ts'
import { anchored } from './anchored.ts'
import { calendarAt, msOf } from './calendar.ts'
import { type Point, point, Reader, type WindowUnit } from './reader.ts'
import { ago, dayWord, deictic, rolling, weekdayAlone } from './relative.ts'
import { TIME_PREPOSITIONS } from './time-words.ts'
import { tokenize } from './tokens.ts'

export type { WindowUnit } from './reader.ts'

/** A span of time named in a query: whole local days, `start` inclusive, `end` exclusive. */
export interface TimeWindow {
  /** First ms inside the window (local midnight, as ms since the epoch). */
  start: number
  /** First ms after the window. */
  end: number
  /** The words as written, preposition included: "last week", "in May 2023". */
  text: string
  /** UTF-16 offsets of `text` in the query: first unit, first unit after. */
  span: [number, number]
  /** What the words named: one day, a Monday-start week, a month, a season, a year, or a range. */
  unit: WindowUnit
}

/** Options of {@link findTimeWindows}. */
export interface TimeWindowOptions {
  /**
   * Minutes to add to UTC for the local calendar the words mean: "yesterday" in UTC+2 starts
   * at 22:00 UTC. Whole minutes, −840 to 840.
   * @default 0
   */
  offsetMinutes?: number
}

/**
 * The time expressions in `query`, in order, resolved against `now` (ms since the epoch).
 * Pure and deterministic. Dates without a year are the latest that have begun by `now`;
 * weeks start on Monday ("last week" is the Monday-to-Sunday week before this one).
 *
 * @throws InvalidInputError `BAD_OPTION` for a non-string query, a non-finite `now` or a bad
 *   offset.
 * @example
 * findTimeWindows('what did we decide last week?', Date.UTC(2024, 2, 14)).map(formatWindow)
 * // => ['2024-03-04..2024-03-10']
 */
export function findTimeWindows(
  query: string,
  now: number,
  options: TimeWindowOptions = {},
): TimeWindow[] {
  if (typeof query !== 'string') throw badOption('query', 'a string', query)
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw badOption('now', 'a finite number of ms since the epoch', now)
  }
  const offset = options.offsetMinutes ?? 0
  if (!Number.isInteger(offset) || Math.abs(offset) > 840) {
    throw badOption('offsetMinutes', 'a whole number of minutes from -840 to 840', offset)
  }
  const r = new Reader(tokenize(query), calendarAt(now, offset))
  const windows: TimeWindow[] = []
  for (let i = 0; i < r.tokens.length; ) {
    const p = expressionAt(r, i)
    if (!p) {
      i++
      continue
    }
    const first = r.tokens[i]!.start
    const last = r.tokens[i + p.n - 1]!.end
    windows.push({
      start: msOf(p.a, offset),
      end: msOf(p.b, offset),
      text: query.slice(first, last),
      span: [first, last],
      unit: p.unit,
    })
    i += p.n
  }
  return windows
}

const CONNECTORS = new Set(['to', 'until', 'till', 'through', 'thru', '-', '–', '—'])

/** An expression starting at token `i`: a range, "since X", a preposition and a point. */
function expressionAt(r: Reader, i: number): Point | null {
  const w = r.word(i)
  if (w === 'since') {
    const p = pointAt(r, i + 1, true)
    if (!p || p.a > r.cal.today) return null
    return point(p.n + 1, [p.a, r.cal.today + 1], 'range')
  }
  if (w === 'between') {
    const p = pointAt(r, i + 1, true)
    if (p && r.word(i + 1 + p.n) === 'and') {
      const q = pointAt(r, i + 2 + p.n, true)
      const both = q && joinRange(p, q)
      if (both) return { ...both, n: both.n + 2 }
    }
    return null
  }
  if (w !== undefined && TIME_PREPOSITIONS.has(w)) {
    const p = rangeAt(r, i + 1, true)
    if (p) return { ...p, n: p.n + 1 }
  }
  return rangeAt(r, i, false)
}

/** A point, or "X to Y" / "X–Y" ("May to July 2023", "2019-2021", "from May until June"). */
function rangeAt(r: Reader, i: number, ctx: boolean): Point | null {
  const p = pointAt(r, i, ctx) ?? pointAt(r, i, true)
  if (!p) return null
  const c = r.tokens[i + p.n]
  if (c && CONNECTORS.has(c.text)) {
    const q = pointAt(r, i + p.n + 1, true)
    const both = q && joinRange(p, q)
    if (both) return { ...both, n: both.n + 1 }
  }
  return pointAt(r, i, ctx)
}

const anchorAt = (r: Reader, i: number) => pointAt(r, i, true)

/** A point with an optional "the" before it ("the summer of 2022", "the 8th of June"). */
function pointAt(r: Reader, i: number, ctx: boolean): Point | null {
  const p = pointOnly(r, i, ctx)
  if (p || r.word(i) !== 'the') return p
  const q = pointOnly(r, i + 1, ctx)
  return q && { ...q, n: q.n + 1 }
}

function pointOnly(r: Reader, i: number, ctx: boolean): Point | null {
  return (
    anchored(r, i, anchorAt) ??
    isoDate(r, i) ??
    dayWord(r, i) ??
    ago(r, i) ??
    rolling(r, i) ??
    partOf(r, i) ??
    deictic(r, i) ??
    dayMonth(r, i) ??
    monthName(r, i, ctx) ??
    season(r, i, ctx) ??
    decade(r, i) ??
    bareYear(r, i) ??
    weekdayAlone(r, i, ctx)
  )
}

/**
 * Two points as one range, the first taking the second's year when written without one
 * ("between May and July 2023"), and the second the first's ("from 8 June 2023 to 12 July").
 */
function joinRange(p: Point, q: Point): Point | null {
  let [a, b] = [p.a, p.b]
  let [c, d] = [q.a, q.b]
  const yearOf = (day: number) => new Date(day * 86_400_000).getUTCFullYear()
  if (p.inYear) {
    const y = yearOf(c)
    const moved = p.inYear(y)
    const earlier = moved && moved[0] > c ? p.inYear(y - 1) : moved
    if (earlier) [a, b] = earlier
  } else if (q.inYear) {
    const y = yearOf(a)
    const moved = q.inYear(y)
    const later = moved && moved[1] <= a ? q.inYear(y + 1) : moved
    if (later) [c, d] = later
  }
  if (d <= a) return null
  return point(p.n + q.n, [a, Math.max(b, d)], 'range')
}

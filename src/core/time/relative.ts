/**
 * Time words relative to now: "yesterday", "three weeks ago", "last month", "this spring",
 * "the past 5 days", "last Friday", "this weekend".
 */

import { dayOf } from './calendar.ts'
import { type Point, point, type Reader } from './reader.ts'
import { seasonOccurrence, seasonYear } from './seasons.ts'
import {
  DEIXIS,
  MONTHS,
  NUMBER_WORDS,
  SEASONS,
  STANDALONE_WEEKDAYS,
  type StepUnit,
  UNIT_WORDS,
  WEEKDAYS,
} from './time-words.ts'

const PARTS_OF_DAY = new Set(['morning', 'afternoon', 'evening', 'night', 'tonight'])

/** "today", "yesterday", "tomorrow", "the day before yesterday", "last night", "tonight". */
export function dayWord(r: Reader, i: number): Point | null {
  const t = r.cal.today
  const w = r.word(i)
  const day = (n: number, d: number) => point(n, [d, d + 1], 'day')
  if (w === 'today' || w === 'tonight') return day(1, t)
  if (w === 'yesterday' || w === 'tomorrow') {
    const d = w === 'yesterday' ? t - 1 : t + 1
    return day(PARTS_OF_DAY.has(r.word(i + 1) ?? '') ? 2 : 1, d)
  }
  if (w === 'day' && (r.word(i + 1) === 'before' || r.word(i + 1) === 'after')) {
    const next = r.word(i + 2)
    if (r.word(i + 1) === 'before' && next === 'yesterday') return day(3, t - 2)
    if (r.word(i + 1) === 'after' && next === 'tomorrow') return day(3, t + 2)
  }
  if (w === 'last' && r.word(i + 1) === 'night') return day(2, t - 1)
  if (w === 'this' && PARTS_OF_DAY.has(r.word(i + 1) ?? '')) return day(2, t)
  return null
}

/** A count at `i` ("3", "three", "a", "a couple of", "a few"): [value, tokens]. */
function count(r: Reader, i: number): [number, number] | null {
  const n = r.integer(i)
  if (n !== undefined) return n > 0 && n <= 1000 ? [n, 1] : null
  const w = r.word(i)
  if ((w === 'a' || w === 'an') && r.word(i + 1) === 'couple' && r.word(i + 2) === 'of') {
    return [2, 3]
  }
  if (w === 'a' && r.word(i + 1) === 'few') return [3, 2]
  const v = w === undefined ? undefined : NUMBER_WORDS.get(w)
  return v === undefined ? null : [v, 1]
}

/** The calendar unit `k` steps from the current one: day, Monday-start week, month, year. */
export function unitAt(r: Reader, unit: StepUnit, k: number): [number, number] {
  const { today, year, month, weekday } = r.cal
  if (unit === 'day') return [today + k, today + k + 1]
  if (unit === 'week') {
    const monday = today - weekday + 7 * k
    return [monday, monday + 7]
  }
  if (unit === 'month') return [dayOf(year, month + k), dayOf(year, month + k + 1)]
  return [dayOf(year + k, 0), dayOf(year + k + 1, 0)]
}

/** "N days|weeks|months|years ago": the calendar unit N back (weeks start on Monday). */
export function ago(r: Reader, i: number): Point | null {
  const c = count(r, i)
  if (!c) return null
  const unit = UNIT_WORDS.get(r.word(i + c[1]) ?? '')
  if (!unit || r.word(i + c[1] + 1) !== 'ago') return null
  return point(c[1] + 2, unitAt(r, unit[0], -c[0] * unit[1]), unit[0])
}

/** "the past week", "the last 3 days", "past two months": a rolling range ending today. */
export function rolling(r: Reader, i: number): Point | null {
  const w = r.word(i)
  if (w !== 'past' && w !== 'last') return null
  const c = count(r, i + 1)
  const at = i + 1 + (c ? c[1] : 0)
  const unit = UNIT_WORDS.get(r.word(at) ?? '')
  // "last week" without a count is the calendar week (deixis); "past week" is rolling.
  if (!unit || (!c && w === 'last')) return null
  const steps = (c ? c[0] : 1) * unit[1]
  const end = r.cal.today + 1
  const { year, month, date } = r.cal
  const start =
    unit[0] === 'day'
      ? end - steps
      : unit[0] === 'week'
        ? end - 7 * steps
        : unit[0] === 'month'
          ? dayOf(year, month - steps, date) + 1
          : dayOf(year - steps, month, date) + 1
  return point(at - i + 1, [start, end], 'range')
}

/** "last|this|next week|month|year|weekend|spring|Friday|May". */
export function deictic(r: Reader, i: number): Point | null {
  const k = DEIXIS.get(r.word(i) ?? '')
  const w = r.word(i + 1)
  if (k === undefined || w === undefined) return null
  const unit = UNIT_WORDS.get(w)
  if (unit && unit[1] === 1 && !w.endsWith('s')) return point(2, unitAt(r, unit[0], k), unit[0])
  if (w === 'weekend') return point(2, weekend(r, k), 'range')
  const season = SEASONS.get(w)
  if (season !== undefined) {
    const y = seasonYear(r.cal, season, k)
    return point(2, seasonOccurrence(season, y), 'season')
  }
  const wd = WEEKDAYS.get(w)
  if (wd !== undefined) return point(2, [weekdayDay(r, wd, k), weekdayDay(r, wd, k) + 1], 'day')
  const m = MONTHS.get(w)
  if (m !== undefined) {
    const { year, month } = r.cal
    const y = k === 0 ? year : k < 0 ? (m < month ? year : year - 1) : m > month ? year : year + 1
    return point(2, [dayOf(y, m), dayOf(y, m + 1)], 'month')
  }
  return null
}

/** A weekend (Saturday and Sunday): k = −1 last week's, 0 this week's, 1 next week's. */
function weekend(r: Reader, k: number): [number, number] {
  const saturday = r.cal.today - r.cal.weekday + 5 + 7 * k
  return [saturday, saturday + 2]
}

/**
 * The day of weekday `wd`: k = 0 this week's (Monday-start); −1 the latest one before today;
 * +1 the first one after today; undefined the latest on or before today ("on Monday").
 */
function weekdayDay(r: Reader, wd: number, k: number | undefined): number {
  const { today, weekday } = r.cal
  if (k === 0) return today - weekday + wd
  if (k === 1) return today + ((wd - weekday + 7) % 7 || 7)
  return today - ((weekday - wd + 7) % 7 || (k === -1 ? 7 : 0))
}

/** A weekday alone ("Monday", "on Tue") or "the weekend": the latest on or before today. */
export function weekdayAlone(r: Reader, i: number, ctx: boolean): Point | null {
  const w = r.word(i)
  if (w === 'weekend') {
    return point(1, weekend(r, r.cal.weekday >= 5 ? 0 : -1), 'range')
  }
  const wd = w === undefined ? undefined : WEEKDAYS.get(w)
  if (wd === undefined || (!ctx && !STANDALONE_WEEKDAYS.has(w!))) return null
  const d = weekdayDay(r, wd, undefined)
  return point(1, [d, d + 1], 'day')
}

/**
 * Seasons, meteorological and northern: spring March–May, summer June–August, autumn
 * September–November, winter December–February. An occurrence is named by the year it starts
 * in, so "winter 2023" is December 2023 to February 2024.
 */

import type { Calendar } from './calendar.ts'
import { dayOf } from './calendar.ts'

/** The occurrence of the season starting in `firstMonth` of `year`. */
export function seasonOccurrence(firstMonth: number, year: number): [number, number] {
  return [dayOf(year, firstMonth), dayOf(year, firstMonth + 3)]
}

/**
 * The start year of "this" season: the occurrence holding today, else the nearer of the one
 * just ended and the one to come ("this winter" is the winter just gone in March, the coming
 * one in October).
 */
export function thisSeasonYear(cal: Calendar, firstMonth: number): number {
  const y = latestSeasonYear(cal, firstMonth)
  const [, end] = seasonOccurrence(firstMonth, y)
  if (cal.today < end) return y
  const [next] = seasonOccurrence(firstMonth, y + 1)
  return cal.today - end < next - cal.today ? y : y + 1
}

/** The start year of the latest occurrence that has begun by today ("in the summer"). */
export function latestSeasonYear(cal: Calendar, firstMonth: number): number {
  const y = cal.year
  return dayOf(y, firstMonth) > cal.today ? y - 1 : y
}

/**
 * The start year of the season `k` steps away: −1 the latest that has ended ("last summer"),
 * 0 "this" one, +1 the first that has not begun ("next spring").
 */
export function seasonYear(cal: Calendar, firstMonth: number, k: -1 | 0 | 1): number {
  if (k === 0) return thisSeasonYear(cal, firstMonth)
  const y = latestSeasonYear(cal, firstMonth)
  if (k === 1) return y + 1
  return cal.today < seasonOccurrence(firstMonth, y)[1] ? y - 1 : y
}

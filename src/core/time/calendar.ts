/**
 * The calendar the time words are resolved in: UTC shifted by a fixed offset, counted in whole
 * local days (day 0 is 1970-01-01 local), so every window is a run of days and the arithmetic
 * is integer.
 */

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000

/** "Now" as calendar fields, in the shifted calendar. */
export interface Calendar {
  /** Minutes added to UTC to get local time (UTC+2 is 120). */
  offsetMinutes: number
  /** Today's local day number. */
  today: number
  year: number
  /** 0 = January. */
  month: number
  /** Day of the month, 1-based. */
  date: number
  /** Day of the week, 0 = Monday (weeks start on Monday). */
  weekday: number
}

export function calendarAt(now: number, offsetMinutes: number): Calendar {
  const local = now + offsetMinutes * 60_000
  const today = Math.floor(local / DAY_MS)
  const d = new Date(today * DAY_MS)
  return {
    offsetMinutes,
    today,
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    date: d.getUTCDate(),
    weekday: weekdayOf(today),
  }
}

/** The local day number of a calendar date; months and days past their range roll over. */
export function dayOf(year: number, month: number, date = 1): number {
  return Math.round(Date.UTC(year, month, date) / DAY_MS)
}

/** 0 = Monday … 6 = Sunday. 1970-01-01 was a Thursday (3). */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7
}

export function daysInMonth(year: number, month: number): number {
  return dayOf(year, month + 1) - dayOf(year, month)
}

/** The first ms of a local day, as real ms since the epoch. */
export function msOf(day: number, offsetMinutes: number): number {
  return day * DAY_MS - offsetMinutes * 60_000
}

/** The local calendar date of a day number: [year, month (0-based), date]. */
export function dateOf(day: number): [number, number, number] {
  const d = new Date(day * DAY_MS)
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()]
}

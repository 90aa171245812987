/**
 * Time words anchored on a date rather than on now: "the week before 9 June 2023", "the
 * weekend before 17 July", "the Friday before 15 July", "two weeks after May 3", "the day after
 * yesterday". The anchor is any point the parser reads.
 */

import { dateOf, dayOf, weekdayOf } from './calendar.ts'
import { type Point, point, type Reader } from './reader.ts'
import { NUMBER_WORDS, UNIT_WORDS, WEEKDAYS } from './time-words.ts'

type Head =
  | { kind: 'day' | 'week' | 'weekend'; n: number }
  | { kind: 'weekday'; wd: number; n: number }
  | { kind: 'shift'; unit: 'day' | 'week' | 'month' | 'year'; steps: number; n: number }

function head(r: Reader, i: number): Head | null {
  let at = i
  const lead = r.word(at)
  if (lead === 'the' || lead === 'last') at++
  const w = r.word(at)
  if (at > i) {
    if (w === 'day' || w === 'week' || w === 'weekend') return { kind: w, n: at + 1 - i }
    const wd = WEEKDAYS.get(w ?? '')
    if (wd !== undefined) return { kind: 'weekday', wd, n: at + 1 - i }
    return null
  }
  const count = r.integer(at) ?? NUMBER_WORDS.get(w ?? '')
  const unit = UNIT_WORDS.get(r.word(at + 1) ?? '')
  if (count === undefined || !unit || count < 1 || count > 1000) return null
  return { kind: 'shift', unit: unit[0], steps: count * unit[1], n: 2 }
}

/**
 * "HEAD before|after ANCHOR": `anchorAt` reads the anchor (the caller's point reader, so an
 * anchor may be relative or absolute).
 */
export function anchored(
  r: Reader,
  i: number,
  anchorAt: (r: Reader, i: number) => Point | null,
): Point | null {
  const h = head(r, i)
  if (!h) return null
  const dir = r.word(i + h.n)
  if (dir !== 'before' && dir !== 'after') return null
  const p = anchorAt(r, i + h.n + 1)
  if (!p) return null
  const n = h.n + 1 + p.n
  const before = dir === 'before'
  if (h.kind === 'day') return point(n, before ? [p.a - 1, p.a] : [p.b, p.b + 1], 'day')
  if (h.kind === 'week') return point(n, before ? [p.a - 7, p.a] : [p.b, p.b + 7], 'range')
  if (h.kind === 'weekend') {
    // The Saturday of the latest whole weekend before the anchor, or the first one after it.
    const sat = before
      ? p.a - 2 - ((weekdayOf(p.a - 2) - 5 + 7) % 7)
      : p.b + ((5 - weekdayOf(p.b) + 7) % 7)
    return point(n, [sat, sat + 2], 'range')
  }
  if (h.kind === 'weekday') {
    const d = before
      ? p.a - 1 - ((weekdayOf(p.a - 1) - h.wd + 7) % 7)
      : p.b + ((h.wd - weekdayOf(p.b) + 7) % 7)
    return point(n, [d, d + 1], 'day')
  }
  if (h.kind !== 'shift') return null
  const sign = before ? -1 : 1
  const from = before ? p.a : p.b - 1
  if (h.unit === 'day') return point(n, [from + sign * h.steps, from + sign * h.steps + 1], 'day')
  if (h.unit === 'week') {
    // A week is a rough distance: the seven days around the day that many weeks away.
    const d = from + sign * 7 * h.steps
    return point(n, [d - 3, d + 4], 'range')
  }
  const [y, m] = dateOf(from)
  if (h.unit === 'month') {
    return point(n, [dayOf(y, m + sign * h.steps), dayOf(y, m + sign * h.steps + 1)], 'month')
  }
  return point(n, [dayOf(y + sign * h.steps, 0), dayOf(y + sign * h.steps + 1, 0)], 'year')
}

/**
 * Time words that name a date: "2023-05-08", "8 June", "June 8th, 2023", "May 2023",
 * "in May", "the summer of 2022", "2019", "the 1990s", "early May", "the end of 2023".
 * A date written without a year is the latest one that has begun by today.
 */

import { dayOf, daysInMonth } from './calendar.ts'
import { type Point, point, type Reader } from './reader.ts'
import { unitAt } from './relative.ts'
import { latestSeasonYear, seasonOccurrence } from './seasons.ts'
import {
  COUNT_WORDS,
  DEIXIS,
  MONTHS,
  NOT_PLURAL,
  SEASONS,
  STANDALONE_MONTHS,
} from './time-words.ts'

const month = (y: number, m: number): [number, number] => [dayOf(y, m), dayOf(y, m + 1)]

/** "2023-05-08", "2023/05/08", "2023-05". */
export function isoDate(r: Reader, i: number): Point | null {
  const t = r.tokens[i]
  if (t?.kind !== 'iso') return null
  const [y, m, d] = t.text.split(/[-/]/).map(Number) as [number, number, number?]
  if (y < 1000 || m < 1 || m > 12) return null
  if (d === undefined) return point(1, month(y, m - 1), 'month')
  if (d < 1 || d > daysInMonth(y, m - 1)) return null
  const day = dayOf(y, m - 1, d)
  return point(1, [day, day + 1], 'day')
}

/** The day `d` of month `m` in the year written, else in the latest year it has come by. */
function dayInMonth(r: Reader, n: number, m: number, d: number, y?: number): Point | null {
  const at = (year: number): [number, number] | null =>
    d > daysInMonth(year, m) ? null : [dayOf(year, m, d), dayOf(year, m, d) + 1]
  const year = y ?? (dayOf(r.cal.year, m, d) <= r.cal.today ? r.cal.year : r.cal.year - 1)
  const days = at(year)
  if (!days) return null
  return point(n, days, 'day', y === undefined ? at : undefined)
}

/** "8 June", "8th of June 2023", "the 8th of June", "June 8", "June 8th, 2023". */
export function dayMonth(r: Reader, i: number): Point | null {
  const d = r.dayNumber(i)
  if (d !== undefined) {
    const of = r.word(i + 1) === 'of' ? 1 : 0
    const m = MONTHS.get(r.word(i + 1 + of) ?? '')
    if (m === undefined) return null
    const at = i + 2 + of
    const y = r.year(at + r.comma(at))
    return dayInMonth(r, at - i + (y ? 1 + r.comma(at) : 0), m, d, y)
  }
  const m = MONTHS.get(r.word(i) ?? '')
  const day = r.dayNumber(i + 1)
  if (m === undefined || day === undefined) return null
  const y = r.year(i + 2 + r.comma(i + 2))
  return dayInMonth(r, 2 + (y ? 1 + r.comma(i + 2) : 0), m, day, y)
}

/** "May 2023", "May, 2023", "May of 2023"; a month alone only where `ctx` or unambiguous. */
export function monthName(r: Reader, i: number, ctx: boolean): Point | null {
  const w = r.word(i)
  const m = w === undefined ? undefined : MONTHS.get(w)
  if (m === undefined) return null
  const gap = r.comma(i + 1) || (r.word(i + 1) === 'of' ? 1 : 0)
  const y = r.year(i + 1 + gap)
  if (y !== undefined) return point(2 + gap, month(y, m), 'month')
  if (!ctx && !STANDALONE_MONTHS.has(w!)) return null
  const year = m <= r.cal.month ? r.cal.year : r.cal.year - 1
  return point(1, month(year, m), 'month', (yy) => month(yy, m))
}

/** "summer 2022", "the summer of 2022"; a season alone ("in the summer") only where `ctx`. */
export function season(r: Reader, i: number, ctx: boolean): Point | null {
  const first = SEASONS.get(r.word(i) ?? '')
  if (first === undefined) return null
  const of = r.word(i + 1) === 'of' ? 1 : 0
  const y = r.year(i + 1 + of)
  if (y !== undefined) return point(2 + of, seasonOccurrence(first, y), 'season')
  if (!ctx) return null
  const at = (yy: number) => seasonOccurrence(first, yy)
  return point(1, at(latestSeasonYear(r.cal, first)), 'season', at)
}

/** Does the word after a number make it a count ("2019 files", "2019 km")? */
function isCountWord(w: string | undefined): boolean {
  if (w === undefined) return false
  if (COUNT_WORDS.has(w)) return true
  return w.length > 3 && /[^su]s$/.test(w) && !NOT_PLURAL.has(w)
}

/** A year: "2019", "in 2019"; not "2019.5", "$2019", "2019%", "2019 files". */
export function bareYear(r: Reader, i: number): Point | null {
  const y = r.year(i)
  if (y === undefined) return null
  const before = r.mark(i - 1)
  const after = r.mark(i + 1)
  if (before && '$€£#+'.includes(before)) return null
  if (after && '%:'.includes(after)) return null
  if (isCountWord(r.word(i + 1))) return null
  return point(1, [dayOf(y, 0), dayOf(y + 1, 0)], 'year')
}

/** "the 1990s", "the '90s", "1990s": ten years. Two digits need "the" or "'" before them. */
export function decade(r: Reader, i: number): Point | null {
  const t = r.tokens[i]
  if (t?.kind !== 'number' || t.suffix !== 's' || Number.isNaN(t.value) || t.value % 10) {
    return null
  }
  let y = t.value
  if (t.text.length === 2) {
    const before = r.word(i - 1) ?? r.mark(i - 1)
    if (before !== 'the' && before !== "'" && before !== '’') return null
    y += y >= 30 ? 1900 : 2000
  } else if (t.text.length !== 4 || y < 1900 || y > 2090) return null
  return point(1, [dayOf(y, 0), dayOf(y + 10, 0)], 'range')
}

type Part = 'early' | 'mid' | 'late'
const PART_WORDS = new Map<string, Part>([
  ['early', 'early'],
  ['mid', 'mid'],
  ['middle', 'mid'],
  ['late', 'late'],
  ['beginning', 'early'],
  ['start', 'early'],
  ['end', 'late'],
])

/** A third of a month (days 1–10, 11–20, 21–end) or of a year (Jan–Apr, May–Aug, Sep–Dec). */
function third(part: Part, [a, b]: [number, number], unit: 'month' | 'year'): [number, number] {
  if (unit === 'month')
    return part === 'early' ? [a, a + 10] : part === 'mid' ? [a + 10, a + 20] : [a + 20, b]
  const [y] = [new Date(a * 86_400_000).getUTCFullYear()]
  const k = part === 'early' ? 0 : part === 'mid' ? 4 : 8
  return [dayOf(y, k), dayOf(y, k + 4)]
}

/**
 * "early May", "mid-2023", "late last year", "the beginning of June", "the end of the month".
 * The month or year after the modifier needs no preposition.
 */
export function partOf(r: Reader, i: number): Point | null {
  let at = i
  if (r.word(at) === 'the') at++
  const part = PART_WORDS.get(r.word(at) ?? '')
  if (!part) return null
  const phrase =
    at > i ||
    r.word(at) === 'beginning' ||
    r.word(at) === 'start' ||
    r.word(at) === 'end' ||
    r.word(at) === 'middle'
  at++
  if (phrase) {
    if (r.word(at) !== 'of') return null
    at++
  } else if (r.mark(at) === '-') at++
  if (r.word(at) === 'the' && (r.word(at + 1) === 'month' || r.word(at + 1) === 'year')) {
    const unit = r.word(at + 1) as 'month' | 'year'
    return point(at + 2 - i, third(part, unitAt(r, unit, 0), unit), 'range')
  }
  const k = DEIXIS.get(r.word(at) ?? '')
  const unitWord = r.word(at + 1)
  if (k !== undefined && (unitWord === 'month' || unitWord === 'year')) {
    return point(at + 2 - i, third(part, unitAt(r, unitWord, k), unitWord), 'range')
  }
  const m = monthName(r, at, true)
  if (m) {
    const inYear = m.inYear
    const within = inYear && ((y: number) => third(part, inYear(y)!, 'month'))
    return point(at + m.n - i, third(part, [m.a, m.b], 'month'), 'range', within || undefined)
  }
  const y = r.year(at)
  if (y !== undefined)
    return point(at + 1 - i, third(part, [dayOf(y, 0), dayOf(y + 1, 0)], 'year'), 'range')
  return null
}

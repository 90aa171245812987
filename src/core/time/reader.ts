/** What every time-word rule reads: the tokens, "now" as a calendar, and the shape of a match. */

import type { Calendar } from './calendar.ts'
import type { Token } from './tokens.ts'

/** The kind of window a time expression names. */
export type WindowUnit = 'day' | 'week' | 'month' | 'season' | 'year' | 'range'

/** A matched time expression, in local day numbers. */
export interface Point {
  /** Tokens consumed. */
  n: number
  /** First local day inside. */
  a: number
  /** First local day after. */
  b: number
  unit: WindowUnit
  /**
   * The same words resolved in another year, for a point written without one ("May", "8 June"),
   * so "between May and July 2023" puts May in 2023. Absent when the words fixed the year or
   * are relative to now.
   */
  inYear?: (year: number) => [number, number] | null
}

export class Reader {
  constructor(
    readonly tokens: readonly Token[],
    readonly cal: Calendar,
  ) {}

  /** The word at `i` without a possessive "'s" ("year's" → "year"), or undefined. */
  word(i: number): string | undefined {
    const t = this.tokens[i]
    if (t?.kind !== 'word') return undefined
    return t.text.endsWith("'s") ? t.text.slice(0, -2) : t.text
  }

  /** The punctuation mark at `i`, or undefined. */
  mark(i: number): string | undefined {
    const t = this.tokens[i]
    return t?.kind === 'mark' ? t.text : undefined
  }

  /** A whole number at `i` with the given suffixes allowed, or undefined. */
  integer(i: number, suffixes: readonly string[] = ['']): number | undefined {
    const t = this.tokens[i]
    if (t?.kind !== 'number' || Number.isNaN(t.value) || !suffixes.includes(t.suffix)) {
      return undefined
    }
    return t.value
  }

  /** A year at `i`: four plain digits, 1900–2100. */
  year(i: number): number | undefined {
    const t = this.tokens[i]
    const v = this.integer(i)
    return v !== undefined && t!.text.length === 4 && v >= 1900 && v <= 2100 ? v : undefined
  }

  /** A day of the month at `i`: 1–31, plain or ordinal ("8", "8th"). */
  dayNumber(i: number): number | undefined {
    const t = this.tokens[i]
    const v = this.integer(i, ['', 'st', 'nd', 'rd', 'th'])
    return v !== undefined && t!.text.length <= 2 && v >= 1 && v <= 31 ? v : undefined
  }

  /** Tokens taken by an optional comma at `i` (0 or 1). */
  comma(i: number): number {
    return this.mark(i) === ',' ? 1 : 0
  }
}

/** A point from its parts. */
export function point(
  n: number,
  [a, b]: [number, number],
  unit: WindowUnit,
  inYear?: Point['inYear'],
): Point {
  return inYear ? { n, a, b, unit, inYear } : { n, a, b, unit }
}

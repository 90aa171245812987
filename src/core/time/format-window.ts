/** A {@link TimeWindow} as text, for explanations and logs. */

import { DAY_MS, dateOf } from './calendar.ts'
import type { TimeWindow } from './find-time-windows.ts'

const iso = ([y, m, d]: [number, number, number]) =>
  `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`

/**
 * The window's first and last day, inclusive, in the calendar it was found in (give the same
 * `offsetMinutes`).
 *
 * @example
 * formatWindow(findTimeWindows('in May 2023', Date.UTC(2024, 0, 1))[0]!)
 * // => '2023-05-01..2023-05-31'
 */
export function formatWindow(
  window: Pick<TimeWindow, 'start' | 'end'>,
  options: { offsetMinutes?: number } = {},
): string {
  const shift = (options.offsetMinutes ?? 0) * 60_000
  const first = Math.floor((window.start + shift) / DAY_MS)
  const last = Math.ceil((window.end + shift) / DAY_MS) - 1
  return `${iso(dateOf(first))}..${iso(dateOf(Math.max(first, last)))}`
}

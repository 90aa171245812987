/** Time words: find the time expressions in a query, format a window. */

export type { TimeWindow, TimeWindowOptions, WindowUnit } from './find-time-windows.ts'
export { findTimeWindows } from './find-time-windows.ts'
export { formatWindow } from './format-window.ts'
export type { MentionedTime } from './mentioned-time.ts'
export { asksWhen, resolveMentionedTime } from './mentioned-time.ts'

import type { ReviewReport } from '../index.ts'

/** One line of a review section: the memory touched and what happened to it. */
export interface ReviewLine {
  id: string
  /** What `review()` did beyond the section's verb, e.g. `into (cosine 0.970)`. */
  note?: string
  /** The other memory the note speaks of: the older duplicate, the edge's far end. */
  otherId?: string
}

/** One action of a review and the memories it touched. */
export interface ReviewSection {
  action: 'archived' | 'removed' | 'flagged' | 'merged' | 'related' | 'promoted'
  /** How the count reads, e.g. `2 flagged for review`. */
  label: string
  lines: ReviewLine[]
}

const LABELS: Record<ReviewSection['action'], string> = {
  archived: 'archived (expired, kept for the grace period)',
  removed: 'removed for good',
  flagged: 'flagged for review',
  merged: 'merged into an older duplicate',
  related: 'related by the judge',
  promoted: 'promoted a tier',
}

/**
 * The report as sections, one per action in a fixed order, each with its count and lines.
 *
 * @example
 * reviewSections({ ...report, flagged: ['01JA'], archived: [] })[2]
 * // => { action: 'flagged', label: '1 flagged for review', lines: [{ id: '01JA' }] }
 */
export function reviewSections(report: ReviewReport): ReviewSection[] {
  const lines: Record<ReviewSection['action'], ReviewLine[]> = {
    archived: report.archived.map((id) => ({ id })),
    removed: report.removed.map((id) => ({ id })),
    flagged: report.flagged.map((id) => ({ id })),
    merged: report.merged.map((m) => ({
      id: m.from,
      note: `into (cosine ${m.similarity.toFixed(3)})`,
      otherId: m.into,
    })),
    related: report.related.map((e) => ({ id: e.from, note: e.kind, otherId: e.to })),
    promoted: report.promoted.map((p) => ({ id: p.id, note: `now ${p.tier}` })),
  }
  return (Object.keys(LABELS) as ReviewSection['action'][]).map((action) => ({
    action,
    label: `${lines[action].length} ${LABELS[action]}`,
    lines: lines[action],
  }))
}

/** The report's first line: how much was looked at, how long it took, and how it went. */
export function reviewSummary(report: ReviewReport): string {
  const touched = reviewSections(report).reduce((sum, s) => sum + s.lines.length, 0)
  const parts = [
    `Reviewed ${report.scanned} memor${report.scanned === 1 ? 'y' : 'ies'} in ${report.tookMs.toFixed(0)} ms`,
    touched === 0 ? 'nothing to do' : `${touched} change${touched === 1 ? '' : 's'}`,
  ]
  if (report.resumed) parts.push('carried on from an interrupted review')
  if (report.judge) parts.push(`judge ${report.judge}`)
  return parts.join(' · ')
}

/** Every id a report names, its lines' own and the others they speak of, each once. */
export function reviewIds(report: ReviewReport): string[] {
  return [
    ...new Set([
      ...report.archived,
      ...report.removed,
      ...report.flagged,
      ...report.merged.flatMap((m) => [m.from, m.into]),
      ...report.related.flatMap((e) => [e.from, e.to]),
      ...report.promoted.map((p) => p.id),
    ]),
  ]
}

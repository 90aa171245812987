import { describe, expect, it } from 'vitest'
import { reviewIds, reviewSections, reviewSummary } from '../../../src/app/review-report-view.ts'
import type { ReviewReport } from '../../../src/core/types.ts'

const EMPTY: ReviewReport = {
  scanned: 4,
  archived: [],
  removed: [],
  flagged: [],
  merged: [],
  related: [],
  promoted: [],
  resumed: false,
  tookMs: 12.4,
}

const BUSY: ReviewReport = {
  ...EMPTY,
  archived: ['A1'],
  removed: ['R1', 'R2'],
  flagged: ['F1'],
  merged: [{ into: 'M0', from: 'M1', similarity: 0.9712 }],
  related: [{ from: 'E1', to: 'E2', kind: 'contradicts', createdAt: 0 }],
  promoted: [{ id: 'P1', tier: 'episodic' }],
  judge: 'timeout',
  resumed: true,
}

describe('reviewSections', () => {
  it('gives every action in a fixed order, with its count, even when nothing was done', () => {
    const sections = reviewSections(EMPTY)
    expect(sections.map((s) => s.action)).toEqual([
      'archived',
      'removed',
      'flagged',
      'merged',
      'related',
      'promoted',
    ])
    expect(sections.every((s) => s.lines.length === 0 && s.label.startsWith('0 '))).toBe(true)
  })

  it('lists each memory touched with what became of it', () => {
    const byAction = Object.fromEntries(reviewSections(BUSY).map((s) => [s.action, s]))
    expect(byAction.removed?.label).toBe('2 removed for good')
    expect(byAction.flagged).toEqual({
      action: 'flagged',
      label: '1 flagged for review',
      lines: [{ id: 'F1' }],
    })
    expect(byAction.merged?.lines).toEqual([
      { id: 'M1', note: 'into (cosine 0.971)', otherId: 'M0' },
    ])
    expect(byAction.related?.lines).toEqual([{ id: 'E1', note: 'contradicts', otherId: 'E2' }])
    expect(byAction.promoted?.lines).toEqual([{ id: 'P1', note: 'now episodic' }])
  })
})

describe('reviewSummary', () => {
  it('says when there was nothing to do', () => {
    expect(reviewSummary(EMPTY)).toBe('Reviewed 4 memories in 12 ms · nothing to do')
  })

  it('counts the changes and names a resumed review and the judge outcome', () => {
    expect(reviewSummary({ ...BUSY, scanned: 1 })).toBe(
      'Reviewed 1 memory in 12 ms · 7 changes · carried on from an interrupted review · judge timeout',
    )
  })
})

describe('reviewIds', () => {
  it('names every memory the report speaks of, each once', () => {
    expect(reviewIds({ ...BUSY, flagged: ['F1', 'A1'] }).sort()).toEqual(
      ['A1', 'E1', 'E2', 'F1', 'M0', 'M1', 'P1', 'R1', 'R2'].sort(),
    )
  })
})

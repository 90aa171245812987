import type { MemoryClient, ReviewReport } from '../index.ts'
import type { AppContext } from './context.ts'
import { byId, h } from './dom.ts'
import { PLAINTEXT } from './plaintext.ts'
import { truncate } from './relation-chips.ts'
import {
  type ReviewLine,
  type ReviewSection,
  reviewIds,
  reviewSections,
  reviewSummary,
} from './review-report-view.ts'
import { action } from './view.ts'

/** Lines shown per action; the rest are counted. */
const LINES_SHOWN = 50

/** The longest text a report line shows of a memory. */
const LINE_TEXT_MAX = 80

/**
 * The Review bar of the Browse card: runs `review()` on demand and shows what it did, each
 * action's count expanding to the memories it touched.
 */
export function mountReviewPanel(ctx: AppContext): void {
  const button = h('button', { type: 'button', id: 'review-button', text: 'Review now' })
  const error = h('p', {
    class: 'field-error',
    id: 'review-error',
    'data-error-for': 'form',
    hidden: true,
  })
  const report = h('div', {
    class: 'review-report',
    id: 'review-report',
    'aria-live': 'polite',
    [PLAINTEXT]: true,
  })
  const bar = h(
    'div',
    { class: 'review-bar' },
    button,
    h('span', {
      class: 'muted small',
      text: 'Archives expired memories, flags low confidence, merges duplicates, promotes.',
    }),
  )
  const review = h('div', { class: 'review' }, bar, error, report)
  byId('browse-list').before(review)

  button.addEventListener('click', () => {
    report.dataset.state = 'running'
    void action(
      review,
      button,
      async () => {
        const { done, texts } = await reviewWithTexts(ctx.memory)
        report.replaceChildren(...renderReport(done, texts))
        report.dataset.state = 'done'
        ctx.emit('changed')
      },
      () => {
        report.dataset.state = 'failed'
      },
    )
  })
}

/**
 * Runs the review and reads the text of every memory its report names. Expired memories are
 * read first, because those the review removes can no longer be read after it.
 */
async function reviewWithTexts(
  memory: MemoryClient,
): Promise<{ done: ReviewReport; texts: Map<string, string> }> {
  const expired = await memory.list({ expired: true, limit: 1000 })
  const texts = new Map(expired.items.map((m) => [m.id, m.text]))
  const done = await memory.review()
  const unread = reviewIds(done).filter((id) => !texts.has(id))
  for (const m of await Promise.all(unread.map((id) => memory.get(id)))) {
    if (m) texts.set(m.id, m.text)
  }
  return { done, texts }
}

function renderReport(report: ReviewReport, texts: ReadonlyMap<string, string>): HTMLElement[] {
  return [
    h('p', { class: 'review-summary', text: reviewSummary(report) }),
    h(
      'ul',
      { class: 'review-sections' },
      ...reviewSections(report).map((section) => renderSection(section, texts)),
    ),
  ]
}

function renderSection(section: ReviewSection, texts: ReadonlyMap<string, string>): HTMLElement {
  const item = h('li', { class: 'review-section', 'data-action': section.action })
  if (section.lines.length === 0) {
    item.append(h('span', { class: 'muted', text: section.label }))
    return item
  }
  const rest = section.lines.length - LINES_SHOWN
  item.append(
    h(
      'details',
      {},
      h('summary', { text: section.label }),
      h(
        'ul',
        { class: 'review-lines' },
        ...section.lines.slice(0, LINES_SHOWN).map((line) => renderLine(line, texts)),
        rest > 0 && h('li', { class: 'muted small', text: `… and ${rest} more` }),
      ),
    ),
  )
  return item
}

/** A memory as a line names it: its text, cut, or its id when it is no longer stored. */
function named(id: string, texts: ReadonlyMap<string, string>): HTMLElement {
  const text = texts.get(id)
  return text === undefined
    ? h('code', { class: 'review-id', title: 'no longer stored', text: id })
    : h('span', {
        class: 'review-text',
        title: `${id}: ${text}`,
        text: truncate(text, LINE_TEXT_MAX),
      })
}

function renderLine(line: ReviewLine, texts: ReadonlyMap<string, string>): HTMLLIElement {
  return h(
    'li',
    { 'data-id': line.id },
    named(line.id, texts),
    line.note !== undefined && h('span', { class: 'muted small', text: ` · ${line.note} ` }),
    line.otherId !== undefined && named(line.otherId, texts),
  )
}

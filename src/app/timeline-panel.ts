import type { ListPage, Memory, TimelineOptions } from '../index.ts'
import type { AppContext } from './context.ts'
import { button, byId, h, keyedList, mountCard, parseTags } from './dom.ts'
import { PLAINTEXT } from './plaintext.ts'
import { view } from './view.ts'

const PAGE_SIZE = 20

/** A memory's time, as every time feature reads it. */
const timeOf = (m: Memory): number => m.happenedAt ?? m.createdAt

/**
 * A date field's value (`YYYY-MM-DD`, the user's calendar) as the local midnight starting it,
 * or that of the next day for an inclusive last day; undefined when empty.
 */
export function localDay(value: string, nextDay = false): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return undefined
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + (nextDay ? 1 : 0)).getTime()
}

/**
 * The "Timeline" card: what happened in a window of days, newest first by `happenedAt` (else
 * when stored), paged through `memory.timeline()`; no keywords. Its slot follows Browse's.
 */
export function mountTimelinePanel(ctx: AppContext): { refresh(): Promise<void> } {
  if (!document.getElementById('timeline-panel')) {
    byId('browse-panel').after(h('section', { class: 'card', id: 'timeline-panel' }))
  }
  const since = h('input', { type: 'date', name: 'since', 'aria-label': 'From (first day)' })
  const until = h('input', { type: 'date', name: 'until', 'aria-label': 'To (last day)' })
  const tag = h('input', { name: 'tag', placeholder: 'tag', 'aria-label': 'Only this tag' })
  const form = h(
    'form',
    { id: 'timeline-filter', class: 'inline-filters' },
    h('label', {}, 'From ', since),
    h('label', {}, 'to ', until),
    tag,
    h('button', { type: 'submit', text: 'Show' }),
  )
  const error = h('p', { class: 'field-error', id: 'timeline-error', hidden: true })
  const list = h('ul', { id: 'timeline-list', class: 'memories timeline', [PLAINTEXT]: true })
  const more = button('Older →', { id: 'timeline-more', hidden: true })
  mountCard('timeline', 'Timeline', form, error, list, h('div', { class: 'pager' }, more))

  let items: Memory[] = []
  let cursor: string | undefined
  const options = (): TimelineOptions => {
    const out: TimelineOptions = { limit: PAGE_SIZE }
    const from = localDay(since.value)
    const to = localDay(until.value, true)
    if (from !== undefined) out.since = from
    if (to !== undefined) out.until = to
    const tags = parseTags(tag.value)
    if (tags.length > 0) out.tags = tags
    return out
  }
  const draw = () =>
    keyedList(list, items, (m) => m.id, renderItem, {
      version: (m) => `${m.updatedAt}:${timeOf(m)}`,
      empty: () => h('li', { class: 'empty', text: 'Nothing happened in this window.' }),
    })
  const show = (page: ListPage, append: boolean) => {
    items = append ? [...items, ...page.items] : page.items
    cursor = page.cursor
    more.hidden = cursor === undefined
    draw()
  }
  const first = view(
    () => ctx.memory.timeline(options()),
    (page) => show(page, false),
    { error, root: list, failed: () => list.replaceChildren() },
  )
  const older = view(
    () => ctx.memory.timeline({ ...options(), ...(cursor ? { cursor } : {}) }),
    (page) => show(page, true),
    { error, root: list },
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void first.refresh()
  })
  more.addEventListener('click', () => void older.refresh())
  ctx.on('changed', () => void first.refresh())
  ctx.on('locked', () => {
    items = []
    cursor = undefined
    more.hidden = true
  })
  void first.refresh()
  return first
}

function renderItem(m: Memory): HTMLLIElement {
  const when = new Date(timeOf(m)).toLocaleDateString(undefined, { dateStyle: 'medium' })
  const until =
    m.happenedUntil === undefined
      ? ''
      : ` – ${new Date(m.happenedUntil).toLocaleDateString(undefined, { dateStyle: 'medium' })}`
  return h(
    'li',
    { class: 'timeline-item', 'data-id': m.id },
    h('time', {
      class: 'muted small',
      datetime: new Date(timeOf(m)).toISOString(),
      text: `${when}${until}${m.happenedAt === undefined ? ' (stored)' : ''}`,
    }),
    h('p', { class: 'memory-text', text: m.text }),
    h('span', {
      class: 'muted small',
      text: [m.type, ...m.tags.map((t) => `#${t}`)].join(' · '),
    }),
  )
}

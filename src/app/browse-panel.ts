import type { ListOptions, Memory } from '../index.ts'
import { addLifecycleControls, type BrowseFilter, browseFilter } from './browse-filters.ts'
import { type BrowseRow, browseRows, stillWanted } from './browse-rows.ts'
import type { AppContext } from './context.ts'
import {
  button,
  confirmButton,
  editInPlace,
  FORGET,
  formatTime,
  h,
  keyedList,
  mountCard,
  textInput,
} from './dom.ts'
import { showFailure } from './field-errors.ts'
import { renderEditor } from './memory-editor.ts'
import { PLAINTEXT } from './plaintext.ts'
import { view } from './view.ts'

const PAGE_SIZE = 10

/** The most memories one Browse page lists while completing its pages' chunks. */
const MAX_LISTED = 5000

/** One page of Browse: the memories listed, the rows they make, the cursor to the next. */
interface BrowsePage {
  items: Memory[]
  rows: BrowseRow[]
  cursor?: string
}

function chunks(n: number): string {
  return `${n} chunk${n === 1 ? '' : 's'}`
}

/**
 * The "Browse" card: newest first, paged, filtered by type, tag, tier, expiry or review flag;
 * each row shows its tier and confidence; edit and forget in place. A page's chunks show as one
 * row that opens the page.
 */
export function mountBrowsePanel(ctx: AppContext): { refresh(): Promise<void> } {
  const filter = h(
    'form',
    { id: 'browse-filter', class: 'inline-filters' },
    h('input', {
      name: 'type',
      placeholder: 'type',
      list: 'type-options',
      'aria-label': 'Filter by type',
    }),
    textInput('tag', 'tag', { 'aria-label': 'Filter by tag', autocomplete: undefined }),
    h('button', { type: 'submit', text: 'Filter' }),
  )
  const error = h('p', { class: 'field-error', id: 'browse-error', hidden: true })
  const list = h('ul', { id: 'browse-list', class: 'memories', [PLAINTEXT]: true })
  const prev = button('← Newer', { id: 'browse-prev', disabled: true })
  const pageLabel = h('span', { id: 'browse-page', text: 'Page 1' })
  const next = button('Older →', { id: 'browse-next', disabled: true })
  mountCard(
    'browse',
    { title: 'Browse', aside: filter },
    error,
    list,
    h('div', { class: 'pager' }, prev, pageLabel, next),
  )
  /** `cursors[i]` opens page i; page 0 needs none. */
  let cursors: (string | undefined)[] = [undefined]
  let page = 0
  /** Set while the filter asks for expired memories only: every row shown is expired. */
  let expiredOnly = false
  addLifecycleControls(filter)

  /** The page asked for, or the last one that still has rows when it has none left. */
  async function load(): Promise<{ shown: BrowsePage; filtered: BrowseFilter }> {
    for (;;) {
      const filtered = browseFilter(new FormData(filter))
      const shown = await listRows({ cursor: cursors[page], ...filtered })
      if (shown.items.length > 0 || page === 0) return { shown, filtered }
      page--
    }
  }

  function render({ shown, filtered }: { shown: BrowsePage; filtered: BrowseFilter }): void {
    expiredOnly = filtered.expired === true
    cursors = cursors.slice(0, page + 1)
    if (shown.cursor) cursors.push(shown.cursor)
    keyedList(list, shown.rows, rowKey, renderRow, {
      version: (row) =>
        row.kind === 'page'
          ? `${row.title}:${row.total}:${row.chunks.map((chunk) => `${chunk.id}@${chunk.updatedAt}`)}`
          : `${row.memory.updatedAt}:${row.memory.confirmations}:${row.memory.needsReview}:${row.memory.archivedAt}:${expiredOnly}`,
      empty: () =>
        h('li', {
          class: 'empty',
          text:
            Object.keys(filtered).length > 0
              ? 'No memories match this filter.'
              : 'No memories yet.',
        }),
    })
    prev.disabled = page === 0
    next.disabled = !shown.cursor
    pageLabel.textContent = `Page ${page + 1}`
  }

  function renderRow(row: BrowseRow): HTMLLIElement {
    return row.kind === 'page' ? renderPage(row) : renderItem(row.memory)
  }

  const browse = view(load, render, { error })

  /** A page of Browse: memories listed until there are enough rows and no page is cut. */
  async function listRows(options: ListOptions): Promise<BrowsePage> {
    const pages = new Map((await ctx.memory.pages.list()).map((info) => [info.pageId, info]))
    const items: Memory[] = []
    let cursor = options.cursor
    let rows: BrowseRow[] = []
    let wanted = PAGE_SIZE
    do {
      const result = await ctx.memory.list({ ...options, cursor, limit: Math.min(wanted, 1000) })
      items.push(...result.items)
      cursor = result.cursor
      rows = browseRows(items, pages)
      wanted = stillWanted(rows, PAGE_SIZE)
    } while (cursor !== undefined && wanted > 0 && items.length < MAX_LISTED)
    return { items, rows, cursor }
  }

  /** A page's chunks as one row: the page is read and changed in the Pages card, not here. */
  function renderPage(row: Extract<BrowseRow, { kind: 'page' }>): HTMLLIElement {
    const open = h('button', {
      type: 'button',
      class: 'ghost page-open',
      title: 'Read the page in the Pages card; change it there by storing it again',
      text: 'Open page',
    })
    open.addEventListener('click', () => ctx.emit('open-page', { pageId: row.pageId }))
    const first = row.chunks[0]!
    const listed =
      row.chunks.length < row.total
        ? `${row.chunks.length} of ${chunks(row.total)} listed`
        : chunks(row.total)
    return h(
      'li',
      { class: 'memory page-group', 'data-page-id': row.pageId },
      h('p', { class: 'memory-text page-title', text: row.title }),
      h(
        'div',
        { class: 'memory-meta' },
        h('span', { class: 'chip chip-type', text: 'page' }),
        h('span', { class: 'chip page-chunks', text: listed }),
        ...first.tags.map((tag) => h('span', { class: 'chip chip-tag', text: tag })),
        h('span', { class: 'muted small', text: formatTime(first.createdAt) }),
        h('span', { class: 'spacer' }),
        open,
      ),
    )
  }

  function renderItem(memory: Memory): HTMLLIElement {
    const forget = confirmButton(
      FORGET,
      async () => {
        await ctx.memory.forget(memory.id)
        ctx.emit('changed')
      },
      (failure) => showFailure(error, failure),
    )
    const edit = h('button', { type: 'button', class: 'ghost', text: 'Edit' })
    const item = h(
      'li',
      { class: 'memory', 'data-id': memory.id },
      h('p', { class: 'memory-text', text: memory.text }),
      h(
        'div',
        { class: 'memory-meta' },
        h('span', { class: 'chip chip-type', text: memory.type }),
        ...lifecycleChips(memory, expiredOnly),
        ...memory.tags.map((tag) => h('span', { class: 'chip chip-tag', text: tag })),
        memory.flags.length > 0 && h('span', { class: 'chip chip-flag', text: 'flagged' }),
        h('span', {
          class: 'muted small',
          text: `${formatTime(memory.createdAt)}${memory.confirmations > 1 ? ` · confirmed ×${memory.confirmations}` : ''}`,
        }),
        h('span', { class: 'spacer' }),
        edit,
        forget,
      ),
    )
    edit.addEventListener('click', () => {
      const editor = editInPlace(
        item,
        renderEditor(
          memory,
          async (patch) => {
            await ctx.memory.update(memory.id, patch)
            ctx.emit('changed')
          },
          () => {
            editor.done()
            void browse.refresh()
          },
        ),
      )
    })
    return item
  }

  filter.addEventListener('submit', (event) => {
    event.preventDefault()
    cursors = [undefined]
    page = 0
    void browse.refresh()
  })
  prev.addEventListener('click', () => {
    page = Math.max(0, page - 1)
    void browse.refresh()
  })
  next.addEventListener('click', () => {
    if (cursors[page + 1] === undefined) return
    page++
    void browse.refresh()
  })
  ctx.on('changed', () => void browse.refresh())
  return browse
}

/** A Browse row's key: a memory by its id, a page's chunks by the page. */
function rowKey(row: BrowseRow): string {
  return row.kind === 'page' ? `page:${row.pageId}` : row.memory.id
}

/** Where a memory stands in its lifecycle: tier, confidence at write, review flag, expiry. */
function lifecycleChips(memory: Memory, knownExpired: boolean): HTMLSpanElement[] {
  const chips = [
    h('span', { class: `chip chip-tier tier-${memory.tier}`, text: memory.tier }),
    h('span', {
      class: 'chip chip-confidence',
      title: 'confidence at write; recall decays it by disuse and raises it by use',
      text: `confidence ${memory.confidence.toFixed(2)}`,
    }),
  ]
  if (memory.needsReview) chips.push(h('span', { class: 'chip chip-review', text: 'needs review' }))
  // A memory past its tier's TTL has no `expiresAt`; only the filter knows it expired.
  const expired = knownExpired || (memory.expiresAt !== undefined && memory.expiresAt <= Date.now())
  if (memory.archivedAt !== undefined || expired) {
    chips.push(
      h('span', {
        class: 'chip chip-expired',
        title: 'past its TTL or expiry: review() removes it after the grace period',
        text: memory.archivedAt !== undefined ? 'archived' : 'expired',
      }),
    )
  }
  return chips
}

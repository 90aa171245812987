import type { ListOptions, Memory } from '../index.ts'
import { addLifecycleControls, browseFilter } from './browse-filters.ts'
import { type BrowseRow, browseRows, stillWanted } from './browse-rows.ts'
import type { AppContext } from './context.ts'
import { byId, confirmButton, FORGET, formatTime, h } from './dom.ts'
import { showFailure } from './field-errors.ts'
import { renderEditor } from './memory-editor.ts'
import { openPage } from './pages-panel.ts'

const PAGE_SIZE = 10

/** The most memories one Browse page lists while completing its pages' chunks. */
const MAX_LISTED = 5000

function chunks(n: number): string {
  return `${n} chunk${n === 1 ? '' : 's'}`
}

/**
 * The "Browse" card: newest first, paged, filtered by type, tag, tier, expiry or review flag;
 * each row shows its tier and confidence; edit and forget in place. A page's chunks show as one
 * row that opens the page.
 */
export function mountBrowsePanel(ctx: AppContext): { refresh(): Promise<void> } {
  const list = byId<HTMLUListElement>('browse-list')
  const filter = byId<HTMLFormElement>('browse-filter')
  const error = byId<HTMLParagraphElement>('browse-error')
  const prev = byId<HTMLButtonElement>('browse-prev')
  const next = byId<HTMLButtonElement>('browse-next')
  const pageLabel = byId<HTMLSpanElement>('browse-page')
  /** `cursors[i]` opens page i; page 0 needs none. */
  let cursors: (string | undefined)[] = [undefined]
  let page = 0
  let editing = false
  let shown = ''
  /** Set while the filter asks for expired memories only: every row shown is expired. */
  let expiredOnly = false
  addLifecycleControls(filter)

  async function refresh(): Promise<void> {
    if (editing) return
    const filtered = browseFilter(new FormData(filter))
    const options: ListOptions = { cursor: cursors[page], ...filtered }
    expiredOnly = filtered.expired === true
    try {
      const result = await listRows(options)
      error.hidden = true
      if (result.items.length === 0 && page > 0) {
        page--
        return refresh()
      }
      cursors = cursors.slice(0, page + 1)
      if (result.cursor) cursors.push(result.cursor)
      // Refreshes come in bursts (own write, change event, other tabs); re-rendering the same
      // page would reset a half-done action such as an armed Forget button.
      const signature = JSON.stringify([
        page,
        expiredOnly,
        result.cursor,
        result.items.map((m) => [m.id, m.updatedAt, m.confirmations, m.needsReview, m.archivedAt]),
      ])
      if (signature === shown && list.childElementCount > 0) return
      shown = signature
      list.replaceChildren(
        ...(result.rows.length > 0
          ? result.rows.map((row) =>
              row.kind === 'page' ? renderPage(row) : renderItem(row.memory),
            )
          : [
              h('li', {
                class: 'empty',
                text:
                  Object.keys(filtered).length > 0
                    ? 'No memories match this filter.'
                    : 'No memories yet.',
              }),
            ]),
      )
      prev.disabled = page === 0
      next.disabled = !result.cursor
      pageLabel.textContent = `Page ${page + 1}`
    } catch (failure) {
      showFailure(error, failure)
    }
  }

  /** A page of Browse: memories listed until there are enough rows and no page is cut. */
  async function listRows(
    options: ListOptions,
  ): Promise<{ items: Memory[]; rows: BrowseRow[]; cursor?: string }> {
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
    open.addEventListener('click', () => openPage({ pageId: row.pageId }))
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
        ctx.changed()
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
    edit.addEventListener('click', () => item.replaceWith(openEditor(memory)))
    return item
  }

  function openEditor(memory: Memory): HTMLLIElement {
    editing = true
    return renderEditor(
      memory,
      async (patch) => {
        await ctx.memory.update(memory.id, patch)
        ctx.changed()
      },
      () => {
        editing = false
        shown = ''
        void refresh()
      },
    )
  }

  filter.addEventListener('submit', (event) => {
    event.preventDefault()
    cursors = [undefined]
    page = 0
    void refresh()
  })
  prev.addEventListener('click', () => {
    page = Math.max(0, page - 1)
    void refresh()
  })
  next.addEventListener('click', () => {
    if (cursors[page + 1] === undefined) return
    page++
    void refresh()
  })
  ctx.onChanged(() => void refresh())
  // The wipe took any open editor with it; unlocking refreshes into a fresh list.
  ctx.onLocked(() => {
    editing = false
    shown = ''
  })
  return { refresh }
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

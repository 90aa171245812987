import type { MemoryStats, PageInfo, PageResult, RememberPageInput, StoredPage } from '../index.ts'
import type { AppContext } from './context.ts'
import { busy, byId, confirmButton, FORGET, formatTime, h } from './dom.ts'
import { clearErrors, showError, showFailure } from './field-errors.ts'
import { type HighlightRange, highlighted } from './highlight-view.ts'
import { notEmbeddedReason } from './model-reason.ts'

/** Dispatched on `window` to show a page in the Pages card; `detail` is an {@link OpenPage}. */
export const OPEN_PAGE = 'engram:open-page'

/** Which page to show, and optionally which chunk of it to scroll to and mark. */
export interface OpenPage {
  pageId: string
  /** UTF-16 offsets of the chunk in the page (`RecallPageRef.start` / `end`). */
  start?: number
  end?: number
  /** Offsets into the chunk's text, as `RecallHit.highlights`. */
  highlights?: readonly HighlightRange[]
}

/** Asks the Pages card to show a page, e.g. from a recall hit. */
export function openPage(detail: OpenPage): void {
  dispatchEvent(new CustomEvent<OpenPage>(OPEN_PAGE, { detail }))
}

/** HTML is converted by the engine (`htmlToText`); everything else is Markdown or plain text. */
function isHtml(file: File): boolean {
  return file.type === 'text/html' || /\.html?$/i.test(file.name)
}

function describeResult(title: string, result: PageResult, stats?: MemoryStats): string {
  const chunks = `${result.chunks} chunk${result.chunks === 1 ? '' : 's'}`
  if (result.status === 'unchanged')
    return `Already stored: “${title}”, ${chunks}; nothing written.`
  const verb = result.status === 'created' ? 'Stored' : 'Updated'
  const reason = notEmbeddedReason(result.chunks, result.embedded, stats)
  return `${verb} “${title}”: ${chunks}, ${result.embedded} embedded${reason ? ` (${reason})` : ''}.`
}

/** The "Pages" card: add a long text or a file, list pages, read one, forget one. */
export function mountPagesPanel(ctx: AppContext): { refresh(): Promise<void> } {
  const form = byId<HTMLFormElement>('page-form')
  const result = byId<HTMLOutputElement>('page-result')
  const list = byId<HTMLUListElement>('pages-list')
  const error = byId<HTMLParagraphElement>('pages-error')
  const view = byId<HTMLDivElement>('page-view')
  const viewTitle = byId<HTMLHeadingElement>('page-view-title')
  const viewMeta = byId<HTMLParagraphElement>('page-view-meta')
  const viewText = byId<HTMLDivElement>('page-view-text')
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const title = form.elements.namedItem('title') as HTMLInputElement
  const text = form.elements.namedItem('text') as HTMLTextAreaElement
  const file = form.elements.namedItem('file') as HTMLInputElement
  let shown = ''
  let viewing: string | undefined

  /** Remembers the page and reports how it went; false when an error is shown instead. */
  async function store(input: RememberPageInput): Promise<boolean> {
    clearErrors(form)
    result.textContent = ''
    try {
      const outcome = await busy(submit, () => ctx.memory.pages.remember(input))
      const stats = await ctx.memory.inspect.stats().catch(() => undefined)
      result.textContent = describeResult(input.title, outcome, stats)
      result.dataset.status = outcome.status
      ctx.changed()
      await refresh()
      return true
    } catch (failure) {
      result.dataset.status = 'error'
      showError(form, failure)
      return false
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (await store({ title: title.value, text: text.value, source: 'user' })) {
      text.value = ''
      title.value = ''
    }
  })

  file.addEventListener('change', async () => {
    const chosen = file.files?.[0]
    if (!chosen) return
    let body: string
    try {
      body = await chosen.text()
    } catch (failure) {
      showError(form, failure)
      return
    } finally {
      file.value = ''
    }
    const input: RememberPageInput = {
      title: title.value.trim() || chosen.name,
      source: chosen.name.slice(0, 256),
      ...(isHtml(chosen) ? { html: body } : { text: body }),
    }
    if (await store(input)) title.value = ''
  })

  async function refresh(): Promise<void> {
    try {
      const pages = await ctx.memory.pages.list()
      error.hidden = true
      if (viewing && !pages.some((page) => page.pageId === viewing)) closeView()
      // Refreshes come in bursts; re-rendering the same list would disarm a Forget button.
      const signature = JSON.stringify(pages.map((p) => [p.pageId, p.updatedAt, p.chunks]))
      if (signature === shown && list.childElementCount > 0) return
      shown = signature
      list.replaceChildren(
        ...(pages.length > 0
          ? pages.map(renderItem)
          : [h('li', { class: 'empty', text: 'No pages yet.' })]),
      )
    } catch (failure) {
      showFailure(error, failure)
    }
  }

  function renderItem(page: PageInfo): HTMLLIElement {
    const open = h('button', { type: 'button', class: 'link page-open', text: page.title })
    const forget = confirmButton(
      FORGET,
      async () => {
        await ctx.memory.pages.forget(page.pageId)
        ctx.changed()
        await refresh()
      },
      (failure) => showFailure(error, failure),
    )
    open.addEventListener('click', () => void show({ pageId: page.pageId }))
    return h(
      'li',
      { class: 'page-item', 'data-page-id': page.pageId },
      open,
      h(
        'div',
        { class: 'memory-meta' },
        h('span', {
          class: 'chip chip-type page-chunks',
          text: `${page.chunks} chunk${page.chunks === 1 ? '' : 's'}`,
        }),
        h('span', { class: 'muted small', text: `${page.source} · ${formatTime(page.updatedAt)}` }),
        h('span', { class: 'spacer' }),
        forget,
      ),
    )
  }

  async function show(target: OpenPage): Promise<void> {
    let page: StoredPage | undefined
    try {
      page = await ctx.memory.pages.get(target.pageId)
    } catch (failure) {
      showFailure(error, failure)
      return
    }
    if (!page) {
      error.textContent = 'That page is no longer stored.'
      error.hidden = false
      closeView()
      return
    }
    error.hidden = true
    viewing = page.pageId
    viewTitle.textContent = page.title
    viewMeta.textContent = `${page.chunks} chunk${page.chunks === 1 ? '' : 's'} · ${page.source} · ${formatTime(page.updatedAt)}`
    const chunk = renderPageText(page.text, target)
    view.hidden = false
    // The chunk in the middle of the text block, and the card on screen.
    ;(chunk ?? view).scrollIntoView({ block: chunk ? 'center' : 'start' })
  }

  /** The page as text nodes; the chunk asked for wrapped and marked. Returns its element. */
  function renderPageText(pageText: string, target: OpenPage): HTMLElement | undefined {
    const { start, end } = target
    // Offsets from an older recall may no longer fit the page (it was updated since).
    if (start === undefined || end === undefined || !(start < end && end <= pageText.length)) {
      viewText.replaceChildren(pageText)
      return undefined
    }
    const chunk = h(
      'span',
      { class: 'page-chunk' },
      ...highlighted(pageText.slice(start, end), target.highlights),
    )
    viewText.replaceChildren(pageText.slice(0, start), chunk, pageText.slice(end))
    return chunk
  }

  function closeView(): void {
    viewing = undefined
    view.hidden = true
    viewText.replaceChildren()
  }

  byId<HTMLButtonElement>('page-view-close').addEventListener('click', closeView)
  addEventListener(OPEN_PAGE, (event) => void show((event as CustomEvent<OpenPage>).detail))
  ctx.onChanged(() => void refresh())
  ctx.onLocked(() => {
    closeView()
    shown = ''
  })
  void refresh()
  return { refresh }
}

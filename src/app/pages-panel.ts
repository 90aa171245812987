import type { MemoryStats, PageInfo, PageResult, RememberPageInput } from '../index.ts'
import type { AppContext, OpenPage } from './context.ts'
import {
  button,
  confirmButton,
  FORGET,
  field,
  formatTime,
  formOf,
  h,
  keyedList,
  mountCard,
  textInput,
} from './dom.ts'
import { showError, showFailure } from './field-errors.ts'
import { highlighted } from './highlight-view.ts'
import { notEmbeddedReason } from './model-reason.ts'
import { PLAINTEXT } from './plaintext.ts'
import { action, view } from './view.ts'

/** HTML is converted by the engine (`htmlToText`); everything else is Markdown or plain text. */
function isHtml(file: File): boolean {
  return file.type === 'text/html' || /\.html?$/i.test(file.name)
}

function describeResult(title: string, result: PageResult, stats?: MemoryStats): string {
  const chunks = `${result.chunks} chunk${result.chunks === 1 ? '' : 's'}`
  if (result.status === 'unchanged')
    return `Already stored: “${title}”, ${chunks}; nothing written.`
  const verb = result.status === 'created' ? 'Stored' : 'Updated'
  // The page is stored and found by its words; its vectors fill in afterwards (the list shows
  // how far).
  if (result.pending > 0 && stats?.embedder?.state === 'ready') {
    return `${verb} “${title}”: ${chunks}, found by its words now; embedding in the background.`
  }
  const embedded = result.chunks - result.pending
  const reason = notEmbeddedReason(result.chunks, embedded, stats)
  return `${verb} “${title}”: ${chunks}, ${embedded} embedded${reason ? ` (${reason})` : ''}.`
}

/** "412 of 1,328 chunks embedded", or '' once every chunk is. */
export function embeddingProgress(done: number, total: number): string {
  if (done >= total) return ''
  return `${done.toLocaleString('en')} of ${total.toLocaleString('en')} chunks embedded`
}

/** The "Pages" card: add a long text or a file, list pages, read one, forget one. */
export function mountPagesPanel(ctx: AppContext): { refresh(): Promise<void> } {
  const title = textInput('title', 'Agent guide')
  const text = h('textarea', {
    name: 'text',
    rows: 5,
    placeholder: '# Install\n\nRun npm install, then npm start.',
    [PLAINTEXT]: true,
  })
  const file = h('input', {
    name: 'file',
    type: 'file',
    accept: '.md,.txt,.html,.htm,text/markdown,text/plain,text/html',
  })
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Remember page' })
  const result = h('output', { id: 'page-result', class: 'result', [PLAINTEXT]: true })
  const form = formOf(
    'page-form',
    [
      field(['Title', "a file's name when left empty"], title),
      field(['Text', 'Markdown or plain text'], text),
      field(['Or pick a file', '.md, .txt, .html'], file),
    ],
    h('div', { class: 'actions' }, submit, result),
  )
  file.after(h('p', { class: 'field-error', 'data-error-for': 'html', hidden: true }))
  const error = h('p', { class: 'field-error', id: 'pages-error', hidden: true })
  const list = h('ul', { id: 'pages-list', class: 'memories pages', [PLAINTEXT]: true })
  const close = button('Close', { id: 'page-view-close', class: 'ghost' })
  const viewTitle = h('h3', { id: 'page-view-title', [PLAINTEXT]: true, text: 'Page' })
  const viewMeta = h('p', { id: 'page-view-meta', class: 'muted small', [PLAINTEXT]: true })
  const viewText = h('div', { id: 'page-view-text', class: 'page-text', [PLAINTEXT]: true })
  const pageView = h(
    'div',
    { id: 'page-view', class: 'page-view', hidden: true },
    h('div', { class: 'card-head' }, viewTitle, close),
    viewMeta,
    viewText,
  )
  mountCard('pages', 'Pages', form, error, list, pageView)
  let viewing: string | undefined
  /** Each page's last `page-embedding` event, while its chunks are still being embedded. */
  const embedding = new Map<string, { done: number; total: number }>()

  /** Remembers the page and reports how it went; false when an error is shown instead. */
  function store(input: RememberPageInput): Promise<boolean> {
    result.textContent = ''
    return action(
      form,
      submit,
      async () => {
        const outcome = await ctx.memory.pages.remember(input)
        const stats = await ctx.memory.inspect.stats().catch(() => undefined)
        result.textContent = describeResult(input.title, outcome, stats)
        result.dataset.status = outcome.status
        ctx.emit('changed')
        await pages.refresh()
      },
      () => {
        result.dataset.status = 'error'
      },
    )
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
    const body = await chosen.text().then(
      (read) => read,
      (failure: unknown) => {
        showError(form, failure)
        return undefined
      },
    )
    file.value = ''
    if (body === undefined) return
    const input: RememberPageInput = {
      title: title.value.trim() || chosen.name,
      source: chosen.name.slice(0, 256),
      ...(isHtml(chosen) ? { html: body } : { text: body }),
    }
    if (await store(input)) title.value = ''
  })

  const pages = view(
    () => ctx.memory.pages.list(),
    (stored) => {
      if (viewing && !stored.some((page) => page.pageId === viewing)) closeView()
      keyedList(list, stored, (page) => page.pageId, renderItem, {
        version: (page) => `${page.updatedAt}:${page.chunks}`,
        empty: () => h('li', { class: 'empty', text: 'No pages yet.' }),
      })
    },
    { error },
  )

  function renderItem(page: PageInfo): HTMLLIElement {
    const open = h('button', { type: 'button', class: 'link page-open', text: page.title })
    const forget = confirmButton(
      FORGET,
      async () => {
        await ctx.memory.pages.forget(page.pageId)
        ctx.emit('changed')
        await pages.refresh()
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
        progressChip(page.pageId),
        h('span', { class: 'spacer' }),
        forget,
      ),
    )
  }

  /** The page's embedding progress, hidden when there is none to show. */
  function progressChip(pageId: string): HTMLSpanElement {
    const chip = h('span', { class: 'chip page-embedding', hidden: true })
    const progress = embedding.get(pageId)
    if (progress) showProgress(chip, progress.done, progress.total)
    return chip
  }

  function showProgress(chip: HTMLElement, done: number, total: number): void {
    chip.textContent = embeddingProgress(done, total)
    chip.hidden = chip.textContent === ''
  }

  ctx.onEvent((event) => {
    if (event.type !== 'page-embedding') return
    const { pageId, done, total } = event
    if (done >= total) embedding.delete(pageId)
    else embedding.set(pageId, { done, total })
    const item = [...list.querySelectorAll<HTMLElement>('.page-item')].find(
      (li) => li.dataset.pageId === pageId,
    )
    const chip = item?.querySelector<HTMLElement>('.page-embedding')
    if (chip) showProgress(chip, done, total)
  })

  async function show(target: OpenPage): Promise<void> {
    const page = await ctx.memory.pages.get(target.pageId).then(
      (stored) => stored ?? null,
      (failure: unknown) => {
        showFailure(error, failure)
        return undefined
      },
    )
    if (page === undefined) return
    if (page === null) {
      showFailure(error, 'That page is no longer stored.')
      closeView()
      return
    }
    error.hidden = true
    viewing = page.pageId
    viewTitle.textContent = page.title
    viewMeta.textContent = `${page.chunks} chunk${page.chunks === 1 ? '' : 's'} · ${page.source} · ${formatTime(page.updatedAt)}`
    const chunk = renderPageText(page.text, target)
    pageView.hidden = false
    // The chunk in the middle of the text block, and the card on screen.
    ;(chunk ?? pageView).scrollIntoView({ block: chunk ? 'center' : 'start' })
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
    pageView.hidden = true
    viewText.replaceChildren()
  }

  close.addEventListener('click', closeView)
  ctx.on('open-page', (target) => void show(target))
  ctx.on('changed', () => void pages.refresh())
  // The wipe emptied the list; the refresh after unlocking renders every row again.
  ctx.on('locked', closeView)
  void pages.refresh()
  return pages
}

import { importFrom, undoImport } from '../import/index.ts'
import type { Memory } from '../index.ts'
import type { AppContext } from './context.ts'
import { button, formError, h, keyedList, mountCard } from './dom.ts'
import { showFailure } from './field-errors.ts'
import { droppedFiles, type PickedFile, pickedFiles, pickedSource } from './import-source.ts'
import {
  failureLine,
  type ImportedPage,
  importedItems,
  progressLine,
  reportLine,
  undoLine,
} from './import-summary.ts'
import { PLAINTEXT } from './plaintext.ts'
import { action } from './view.ts'

/** The most chunk rows read back to list what one import stored. */
const MAX_LISTED = 5000
/** The most pages listed; the rest are counted. */
const MAX_SHOWN = 200

/** An import id the card can name before the import starts, so a failed one can be undone. */
function newImportId(): string {
  const random = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(16).padStart(8, '0')
  return `app-${Date.now().toString(36)}-${random.slice(0, 4)}`
}

/**
 * The "Import from another assistant" card: drop or pick a ChatGPT or Claude export (`.json`,
 * `.zip`) or Markdown notes (files, a folder, a zip); see its progress, then the pages it stored
 * (chunks, flagged chunks, untrusted), and undo it as one step. The card's slot carries
 * `data-state`: `running`, `done`, `failed` or `undone`.
 */
export function mountImportPanel(ctx: AppContext): void {
  const file = h('input', {
    id: 'import-from-file',
    type: 'file',
    multiple: true,
    accept: '.json,.zip,.md,.markdown,application/json,application/zip,text/markdown',
    hidden: true,
  })
  const folder = h('input', {
    id: 'import-from-folder',
    type: 'file',
    webkitdirectory: true,
    hidden: true,
  })
  const pickFile = button('Choose a file', { id: 'import-from-pick' })
  const pickFolder = button('Choose a folder', { id: 'import-from-pick-folder', class: 'ghost' })
  const zone = h(
    'div',
    { id: 'import-drop', class: 'drop-zone' },
    h('p', {
      text: 'Drop a ChatGPT or Claude export (conversations.json or the .zip), or Markdown notes (files, a folder or a .zip), here.',
    }),
    h('div', { class: 'actions' }, pickFile, pickFolder, file, folder),
  )
  const progress = h('progress', { id: 'import-from-progress', max: 1, value: 0, hidden: true })
  const status = h('p', { id: 'import-from-status', class: 'muted small' })
  const error = formError()
  error.id = 'import-from-error'
  const summary = h('output', { id: 'import-from-summary', class: 'result' })
  const list = h('ul', { id: 'import-from-pages', class: 'memories', [PLAINTEXT]: true })
  const more = h('p', { id: 'import-from-more', class: 'muted small', hidden: true })
  const undo = button('Undo this import', { id: 'import-undo', class: 'ghost danger' })
  const result = h(
    'div',
    { id: 'import-from-result', hidden: true },
    summary,
    list,
    more,
    h('div', { class: 'actions' }, undo),
  )
  const card = mountCard(
    'import',
    'Import from another assistant',
    zone,
    progress,
    status,
    error,
    result,
  )
  /** The import the result shows, which Undo takes out. */
  let shown: string | undefined
  let running = false

  async function run(files: PickedFile[]): Promise<void> {
    if (running) return
    running = true
    pickFile.disabled = pickFolder.disabled = true
    card.dataset.state = 'running'
    error.hidden = true
    result.hidden = true
    shown = undefined
    const importId = newImportId()
    let written = 0
    try {
      const picked = await pickedSource(files)
      status.textContent = `Reading ${picked.name}…`
      progress.max = picked.bytes || picked.notes || 1
      progress.value = 0
      progress.hidden = false
      const report = await importFrom(ctx.memory, picked.source, {
        importId,
        onProgress: (now) => {
          written = now.written
          progress.value = picked.bytes ? now.bytes : now.read
          status.textContent = progressLine(now, picked.bytes)
        },
      })
      status.textContent = `Imported ${picked.name}.`
      await showImported(importId, reportLine(report))
      card.dataset.state = 'done'
    } catch (failure) {
      status.textContent = ''
      showFailure(error, failureLine(failure, written))
      // What the import stored before the bad entry stays until undone: offer it.
      if (written > 0) {
        await showImported(importId, 'Stored before the import stopped:').catch(() => {})
      }
      card.dataset.state = 'failed'
    } finally {
      progress.hidden = true
      pickFile.disabled = pickFolder.disabled = false
      running = false
      if (written > 0) ctx.emit('changed')
    }
  }

  async function taggedRows(importId: string): Promise<{ rows: Memory[]; complete: boolean }> {
    const rows: Memory[] = []
    let cursor: string | undefined
    do {
      const page = await ctx.memory.list({
        tag: `import:${importId}`,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      })
      rows.push(...page.items)
      cursor = page.cursor
    } while (cursor && rows.length < MAX_LISTED)
    return { rows, complete: !cursor }
  }

  async function showImported(importId: string, line: string): Promise<void> {
    const { rows, complete } = await taggedRows(importId)
    const items = importedItems(rows)
    summary.textContent = line
    keyedList(list, items.pages.slice(0, MAX_SHOWN), (page) => page.pageId, renderPage, {
      empty: () => h('li', { class: 'empty', text: 'No page of this import is new.' }),
    })
    const notes = [
      items.pages.length > MAX_SHOWN && `${items.pages.length - MAX_SHOWN} more pages.`,
      items.facts > 0 && `${items.facts} facts.`,
      !complete && `Listing the first ${MAX_LISTED} chunks only.`,
    ].filter(Boolean)
    more.textContent = notes.join(' ')
    more.hidden = notes.length === 0
    undo.hidden = rows.length === 0
    shown = importId
    result.hidden = false
  }

  function renderPage(page: ImportedPage): HTMLLIElement {
    const open = h('button', { type: 'button', class: 'link page-open', text: page.title })
    open.addEventListener('click', () => ctx.emit('open-page', { pageId: page.pageId }))
    return h(
      'li',
      { class: 'memory import-page', 'data-page-id': page.pageId },
      open,
      h(
        'div',
        { class: 'memory-meta' },
        h('span', {
          class: 'chip chip-type import-chunks',
          text: `${page.chunks} chunk${page.chunks === 1 ? '' : 's'}`,
        }),
        page.untrusted &&
          h('span', {
            class: 'chip import-untrusted',
            title:
              "holds text that is not the user's own: an answer, a tool's output, a pasted document",
            text: 'untrusted',
          }),
        page.flagged > 0 &&
          h('span', {
            class: 'chip chip-flag import-flagged',
            title: `poison screen: ${page.rules.join(', ')}`,
            text: `${page.flagged} flagged`,
          }),
      ),
    )
  }

  undo.addEventListener('click', () => {
    const importId = shown
    if (!importId) return
    void action(card, undo, async () => {
      const removed = await undoImport(ctx.memory, importId)
      summary.textContent = undoLine(removed)
      list.replaceChildren()
      more.hidden = true
      undo.hidden = true
      shown = undefined
      card.dataset.state = 'undone'
      ctx.emit('changed')
    })
  })

  pickFile.addEventListener('click', () => file.click())
  pickFolder.addEventListener('click', () => folder.click())
  for (const input of [file, folder]) {
    input.addEventListener('change', () => {
      const files = pickedFiles(input.files)
      input.value = ''
      if (files.length > 0) void run(files)
    })
  }
  zone.addEventListener('dragover', (event) => {
    event.preventDefault()
    zone.dataset.over = 'true'
  })
  zone.addEventListener('dragleave', () => delete zone.dataset.over)
  zone.addEventListener('drop', (event) => {
    event.preventDefault()
    delete zone.dataset.over
    if (!event.dataTransfer) return
    droppedFiles(event.dataTransfer).then(run, (failure: unknown) => showFailure(error, failure))
  })
  // The result names pages of the memory shown; another memory in its place has none of them.
  ctx.on('replaced', () => {
    result.hidden = true
    shown = undefined
    status.textContent = ''
    error.hidden = true
  })
}

/**
 * The side panel's import card: pick or drop a ChatGPT or Claude export (`.json`, `.zip`) or
 * Markdown notes, watch its progress, see what came in (pages with their chunks and flagged
 * chunks) and undo it as one step. `engram/import` runs here in the panel, over the panel's
 * Comlink client to the shared memory worker, as the PWA runs it: the file is read a slice at a
 * time in this page and only each page's JSONL crosses to the worker.
 */
import type { Memory, MemoryClient } from 'engram'
import {
  droppedFiles,
  type PickedFile,
  pickedFiles,
  pickedSource,
} from '../../../src/app/import-source.ts'
import {
  failureLine,
  importedItems,
  progressLine,
  reportLine,
  undoLine,
} from '../../../src/app/import-summary.ts'
import { importFrom, undoImport } from '../../../src/import/index.ts'

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T

/** Every row one import stored, by its tag. */
async function rowsOf(memory: MemoryClient, importId: string): Promise<Memory[]> {
  const rows: Memory[] = []
  let cursor: string | undefined
  do {
    const page = await memory.list({
      tag: `import:${importId}`,
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    })
    rows.push(...page.items)
    cursor = page.cursor
  } while (cursor)
  return rows
}

/** The pages an import stored, one line each: title, chunks, flagged chunks and their rules. */
function pageItems(rows: readonly Memory[]): HTMLLIElement[] {
  return importedItems(rows).pages.map((page) => {
    const li = document.createElement('li')
    li.className = 'memory import-page'
    const flagged = page.flagged > 0 ? `, ${page.flagged} flagged (${page.rules.join(', ')})` : ''
    li.textContent = `${page.title}: ${page.chunks} chunk${page.chunks === 1 ? '' : 's'}${flagged}`
    if (page.flagged > 0) li.classList.add('import-flagged')
    return li
  })
}

/** Wires the card: the file input, the drop zone, the progress bar, the result and the undo. */
export function mountImportCard(memory: MemoryClient): void {
  const progress = $<HTMLProgressElement>('import-progress')
  const line = $('import-line')
  const undo = $<HTMLButtonElement>('import-undo')
  let last: string | undefined
  let busy = false

  const run = async (files: PickedFile[]): Promise<void> => {
    if (busy) return
    busy = true
    undo.hidden = true
    $('import-pages').replaceChildren()
    let written = 0
    const importId = `ext-${Date.now().toString(36)}`
    try {
      const picked = await pickedSource(files)
      progress.hidden = false
      progress.max = picked.bytes ?? picked.notes ?? 1
      progress.value = 0
      line.textContent = `Importing ${picked.name}…`
      const report = await importFrom(memory, picked.source, {
        importId,
        onProgress: (p) => {
          written = p.written
          progress.value = picked.bytes ? p.bytes : p.read
          line.textContent = progressLine(p, picked.bytes)
        },
      })
      progress.value = progress.max
      line.textContent = reportLine(report)
      // A run that stored nothing (the same file again) leaves Undo on the import that did:
      // the pages keep the tag of the import that stored them.
      if (report.created + report.updated + report.facts > 0) last = importId
      if (last) $('import-pages').replaceChildren(...pageItems(await rowsOf(memory, last)))
    } catch (error) {
      line.textContent = failureLine(error, written)
      // What a failed import stored before its fault is undone the same way.
      if (written > 0) last = importId
    } finally {
      busy = false
      undo.hidden = last === undefined
      document.body.dataset.import = 'done'
    }
  }

  $<HTMLInputElement>('import-file').addEventListener('change', (event) => {
    const input = event.target as HTMLInputElement
    void run(pickedFiles(input.files)).then(() => {
      input.value = ''
    })
  })
  const zone = $('import-card')
  zone.addEventListener('dragover', (event) => {
    event.preventDefault()
    zone.classList.add('dropping')
  })
  zone.addEventListener('dragleave', () => zone.classList.remove('dropping'))
  zone.addEventListener('drop', (event) => {
    event.preventDefault()
    zone.classList.remove('dropping')
    // The entries must be taken while the drop event runs (droppedFiles does, synchronously).
    if (event.dataTransfer) void droppedFiles(event.dataTransfer).then(run)
  })
  undo.addEventListener('click', async () => {
    if (!last) return
    const removed = await undoImport(memory, last)
    line.textContent = undoLine(removed)
    last = undefined
    undo.hidden = true
    $('import-pages').replaceChildren()
    document.body.dataset.import = 'undone'
  })
}

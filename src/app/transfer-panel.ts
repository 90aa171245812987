import { exportMarkdown } from '../import/index.ts'
import type { AppContext } from './context.ts'
import { button, field, formOf, h, mountCard } from './dom.ts'
import { action } from './view.ts'

/** The "Import and export" card: JSONL through a file picker and a download; Markdown, zipped. */
export function mountTransferPanel(ctx: AppContext): void {
  const file = h('input', {
    name: 'file',
    type: 'file',
    accept: '.jsonl,.ndjson,.json,.txt,application/x-ndjson',
  })
  const progress = h('progress', { id: 'import-progress', max: 1, value: 0, hidden: true })
  const result = h('output', { id: 'import-result', class: 'result' })
  const form = formOf('import-form', [field('Import a JSONL file', file)], progress, result)
  const exportButton = button('Export JSONL', { id: 'export-button' })
  const withVectors = h('input', { id: 'export-vectors', type: 'checkbox' })
  const markdownButton = button('Export as Markdown (.zip)', { id: 'export-markdown-button' })
  mountCard(
    'transfer',
    'Import and export',
    form,
    h(
      'div',
      { class: 'actions' },
      exportButton,
      h('label', { class: 'check' }, withVectors, ' include vectors'),
      markdownButton,
    ),
  )

  // Only this card's own import moves its bar: the assistant import card writes through
  // importMemories too, and its events are the same.
  let importing = false
  ctx.onEvent((event) => {
    if (event.type !== 'import' || !importing) return
    progress.hidden = false
    progress.value = event.total > 0 ? event.done / event.total : 0
  })

  file.addEventListener('change', async () => {
    const chosen = file.files?.[0]
    if (!chosen) return
    result.textContent = `Reading ${chosen.name}…`
    progress.value = 0
    importing = true
    await action(
      form,
      undefined,
      async () => {
        const report = await ctx.memory.transfer.import(await chosen.text(), {
          defaults: { source: 'import' },
        })
        result.textContent = `Imported ${chosen.name}: ${report.lines} lines, ${report.created} new, ${report.duplicates} already known${report.flagged ? `, ${report.flagged} flagged` : ''}.`
        result.dataset.status = 'ok'
      },
      () => {
        result.textContent = ''
        result.dataset.status = 'error'
      },
    )
    importing = false
    progress.hidden = true
    file.value = ''
    // Earlier batches of a failed import may have been stored.
    ctx.emit('changed')
  })

  const download = (blob: Blob, extension: string): void => {
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = `engram-${ctx.settings.memory}-${new Date().toISOString().slice(0, 10)}${extension}`
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }

  exportButton.addEventListener('click', () => {
    void action(form, exportButton, async () => {
      const jsonl = await ctx.memory.transfer.export({ vectors: withVectors.checked })
      download(new Blob([jsonl], { type: 'application/x-ndjson' }), '.jsonl')
    })
  })

  markdownButton.addEventListener('click', () => {
    void action(form, markdownButton, async () => {
      const zip = await exportMarkdown(ctx.memory)
      download(
        new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
        '-markdown.zip',
      )
    })
  })
}

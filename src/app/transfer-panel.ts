import type { AppContext } from './context.ts'
import { button, field, formOf, h, mountCard } from './dom.ts'
import { action } from './view.ts'

/** The "Import and export" card: JSONL through a file picker and a download. */
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
  mountCard(
    'transfer',
    'Import and export',
    form,
    h(
      'div',
      { class: 'actions' },
      exportButton,
      h('label', { class: 'check' }, withVectors, ' include vectors'),
    ),
  )

  ctx.onEvent((event) => {
    if (event.type !== 'import') return
    progress.hidden = false
    progress.value = event.total > 0 ? event.done / event.total : 0
  })

  file.addEventListener('change', async () => {
    const chosen = file.files?.[0]
    if (!chosen) return
    result.textContent = `Reading ${chosen.name}…`
    progress.value = 0
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
    progress.hidden = true
    file.value = ''
    // Earlier batches of a failed import may have been stored.
    ctx.emit('changed')
  })

  exportButton.addEventListener('click', () => {
    void action(form, exportButton, async () => {
      const jsonl = await ctx.memory.transfer.export({ vectors: withVectors.checked })
      const url = URL.createObjectURL(new Blob([jsonl], { type: 'application/x-ndjson' }))
      const link = document.createElement('a')
      link.href = url
      link.download = `engram-${ctx.settings.memory}-${new Date().toISOString().slice(0, 10)}.jsonl`
      link.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    })
  })
}

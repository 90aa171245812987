import type { AppContext } from './context.ts'
import { busy, byId } from './dom.ts'
import { clearErrors, showError } from './field-errors.ts'

/** The "Import and export" card: JSONL through a file picker and a download. */
export function mountTransferPanel(ctx: AppContext): void {
  const form = byId<HTMLFormElement>('import-form')
  const file = form.elements.namedItem('file') as HTMLInputElement
  const progress = byId<HTMLProgressElement>('import-progress')
  const result = byId<HTMLOutputElement>('import-result')
  const exportButton = byId<HTMLButtonElement>('export-button')
  const withVectors = byId<HTMLInputElement>('export-vectors')

  ctx.onEvent((event) => {
    if (event.type !== 'import') return
    progress.hidden = false
    progress.value = event.total > 0 ? event.done / event.total : 0
  })

  file.addEventListener('change', async () => {
    const chosen = file.files?.[0]
    if (!chosen) return
    clearErrors(form)
    result.textContent = `Reading ${chosen.name}…`
    progress.value = 0
    try {
      const report = await ctx.memory.transfer.import(await chosen.text(), {
        defaults: { source: 'import' },
      })
      result.textContent = `Imported ${chosen.name}: ${report.lines} lines, ${report.created} new, ${report.duplicates} already known${report.flagged ? `, ${report.flagged} flagged` : ''}.`
      result.dataset.status = 'ok'
    } catch (error) {
      result.textContent = ''
      result.dataset.status = 'error'
      showError(form, error)
    } finally {
      progress.hidden = true
      file.value = ''
      // Earlier batches of a failed import may have been stored.
      ctx.changed()
    }
  })

  exportButton.addEventListener('click', async () => {
    clearErrors(form)
    try {
      const jsonl = await busy(exportButton, () =>
        ctx.memory.transfer.export({ vectors: withVectors.checked }),
      )
      const url = URL.createObjectURL(new Blob([jsonl], { type: 'application/x-ndjson' }))
      const link = document.createElement('a')
      link.href = url
      link.download = `engram-${ctx.settings.memory}-${new Date().toISOString().slice(0, 10)}.jsonl`
      link.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (error) {
      showError(form, error)
    }
  })
}

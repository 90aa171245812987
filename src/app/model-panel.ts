import type { EmbedderStats, MemoryEvent } from '../core/types.ts'
import type { AppContext } from './context.ts'
import { byId, formatBytes } from './dom.ts'

/**
 * The "Model" card: which model, on which device, download progress summed over its files,
 * backfill / re-embed progress, and the keyword-only notice until vectors can be made.
 */
export function mountModelPanel(ctx: AppContext): { sync(): Promise<void> } {
  const name = byId('model-name')
  const device = byId('model-device')
  const state = byId('model-state')
  const notice = byId('model-notice')
  const downloadWrap = byId('model-progress-wrap')
  const download = byId<HTMLProgressElement>('model-progress')
  const downloadFile = byId('model-progress-file')
  const downloadPct = byId('model-progress-pct')
  const backfillWrap = byId('backfill-wrap')
  const backfill = byId<HTMLProgressElement>('backfill-progress')
  const backfillLabel = byId('backfill-label')
  const backfillPct = byId('backfill-pct')
  const files = new Map<string, { loaded: number; total: number }>()
  /** Every distinct value the download bar showed, for tests and the curious. */
  const seen: number[] = []

  const model = ctx.settings.model
  name.textContent =
    model === 'none' ? 'none (keyword-only)' : model === 'ngram' ? 'engram/ngram-hash' : model
  setState(model === 'none' ? 'off' : 'loading')

  function setState(value: string, detail?: string): void {
    state.textContent = value
    state.dataset.state = value
    state.title = detail ?? ''
    notice.hidden = value === 'ready'
    notice.className = value === 'failed' ? 'notice error' : 'notice warn'
    notice.title = detail ?? ''
    notice.textContent =
      value === 'failed'
        ? `The model could not load, so recall works by keywords only${detail ? `: ${shorten(detail)}` : '.'}`
        : value === 'off'
          ? 'No model configured: recall is keyword-only.'
          : 'Keyword-only until the model is ready.'
  }

  function onProgress(event: Extract<MemoryEvent, { type: 'model-progress' }>): void {
    if (event.total > 0) files.set(event.file, { loaded: event.loaded, total: event.total })
    let loaded = 0
    let total = 0
    for (const file of files.values()) {
      loaded += file.loaded
      total += file.total
    }
    const fraction = total > 0 ? Math.min(1, loaded / total) : 0
    downloadWrap.hidden = false
    download.value = fraction
    if (seen[seen.length - 1] !== fraction) seen.push(fraction)
    download.dataset.seen = seen.map((v) => v.toFixed(3)).join(' ')
    downloadFile.textContent = `${event.status} ${event.file}`
    downloadPct.textContent =
      total > 0 ? `${Math.round(fraction * 100)}% of ${formatBytes(total)}` : event.status
  }

  function onWork(label: string, done: number, total: number): void {
    backfillWrap.hidden = done >= total
    backfill.value = total > 0 ? done / total : 0
    backfillLabel.textContent = label
    backfillPct.textContent = `${done} / ${total}`
  }

  ctx.onEvent((event) => {
    switch (event.type) {
      case 'model-progress':
        onProgress(event)
        break
      case 'model-ready':
        setState('ready')
        device.textContent = deviceLabel(event.device)
        download.value = 1
        downloadPct.textContent = '100%'
        downloadFile.textContent = 'Model ready'
        break
      case 'model-failed':
        setState('failed', event.error.replace(/^\w*Error: /, '').replace(/^\[[A-Z_]+\]\s*/, ''))
        downloadWrap.hidden = true
        break
      case 'backfill':
        onWork('Embedding memories', event.done, event.total)
        break
      case 'reembed':
        onWork(`Re-embedding for ${event.model}`, event.done, event.total)
        break
    }
  })

  /** Catches up with state the events may have announced before the panel existed. */
  async function sync(): Promise<void> {
    const stats = await ctx.memory.stats()
    const embedder: EmbedderStats | undefined = stats.embedder
    if (!embedder) return
    name.textContent = embedder.model
    if (embedder.device) device.textContent = deviceLabel(embedder.device)
    if (embedder.state === 'ready') setState('ready')
    else if (embedder.state === 'failed') setState('failed', embedder.error)
    if (stats.pendingVectors > 0 && embedder.state === 'ready') {
      onWork('Embedding memories', 0, stats.pendingVectors)
    }
  }

  return { sync }
}

/** Library errors can run to paragraphs; the notice keeps the gist, the tooltip the rest. */
function shorten(text: string): string {
  const clean = text.replace(/^\[[A-Z_]+\]\s*/, '').replace(/`/g, '')
  return clean.length > 180 ? `${clean.slice(0, 177)}…` : clean
}

function deviceLabel(device: string | undefined): string {
  if (!device) return '—'
  if (device === 'webgpu') return 'WebGPU'
  if (device === 'wasm') return 'WASM (CPU)'
  if (device === 'cpu') return 'CPU'
  return device
}

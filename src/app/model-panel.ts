import { USE_LITE_MODEL } from '../embedder/index.ts'
import type { EmbedderStats, MemoryEvent, ModelFailure, ModelFailureReason } from '../index.ts'
import type { AppContext } from './context.ts'
import { byId, h } from './dom.ts'
import { whoAnswers } from './model-reason.ts'
import { USE_CHOICE } from './settings.ts'

/**
 * Where the steps to serve a model from the app's own origin are written up: a page the app
 * serves itself (`public/self-hosting.html`), so the help needs no published package.
 */
export const SELF_HOSTING_DOCS = 'self-hosting.html'

export interface ModelFailureHelp {
  reason: ModelFailureReason
  /** One or two sentences for the notice. */
  text: string
}

/** What to do about each reason the embedder gives ({@link ModelFailureReason}). */
const HELP: Record<Exclude<ModelFailureReason, 'not-found'>, string> = {
  'offline-only':
    'The model is not on this device yet and downloading it is switched off (remote=0). Serve it from this app (see the self-hosting steps) or allow the download, then retry.',
  'out-of-memory':
    'There was not enough memory to load the model. Close other tabs or apps and retry, or pick a smaller model or dtype (q8).',
  unreachable:
    'The model host could not be reached: this device may be offline, or the host (huggingface.co) is blocked here. Retry when online, or serve the model from this app.',
  damaged:
    'The model files are damaged, or the server answered with something else (a web page) in their place. Check the files at the self-hosted path and retry.',
  runtime:
    'The on-device runtime (ONNX Runtime) could not start in this browser. Retry, or try another device setting (?device=wasm).',
  unknown: 'The model could not load.',
}

/**
 * Turns a load failure, as the embedder classified it, into what happened and what to do.
 * Presentation only: nothing branches on it, and no error text is read.
 *
 * @example
 * explainModelFailure({ reason: 'not-found', file: 'https://app.example/models/m/onnx/model.onnx' })
 * // => { reason: 'not-found', text: 'The model’s files were not found at /models/m/ (onnx/model.onnx is missing). …' }
 */
export function explainModelFailure(failure: ModelFailure | undefined): ModelFailureHelp {
  const reason = failure?.reason ?? 'unknown'
  if (reason === 'not-found') return { reason, text: notFound(failure?.file) }
  return { reason, text: HELP[reason] }
}

function notFound(url: string | undefined): string {
  if (!url)
    return 'The model’s files were not found. Check the model id and where it is served from.'
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `The model’s files were not found (${url} is missing).`
  }
  const at = parsed.pathname.search(/\/onnx\/|\/[^/]+$/)
  const folder = at >= 0 ? parsed.pathname.slice(0, at + 1) : parsed.pathname
  const file = parsed.pathname.slice(folder.length)
  if (/(^|\.)(huggingface\.co|hf\.co)$/.test(parsed.hostname)) {
    return `The Hugging Face hub has no ${file} for this model: check the model id, or pick another dtype.`
  }
  return `The model’s files were not found at ${folder} (${file} is missing). Copy the model there as the self-hosting steps describe, then retry.`
}

/** Decimal units, as the hub and file managers count a download. */
export function formatDownload(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B'
  const units = ['B', 'kB', 'MB', 'GB']
  const i = Math.min(units.length - 1, Math.floor(Math.log10(bytes) / 3))
  const value = bytes / 1000 ** i
  return `${value >= 10 || i === 0 ? value.toFixed(0) : value.toFixed(1)} ${units[i]}`
}

/**
 * The "Model" card: which model, on which device, download progress summed over its files,
 * backfill / re-embed progress, and the keyword-only notice until vectors can be made; when the
 * model fails, why in plain words, a Retry button and the self-hosting steps.
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
  const why = h('p', { id: 'model-why', class: 'muted small' })
  byId('model-title').closest('section')!.querySelector('dl')!.after(why)
  const files = new Map<string, { loaded: number; total: number }>()
  /** Every distinct value the download bar showed, for tests and the curious. */
  const seen: number[] = []

  const model = ctx.settings.model
  name.textContent = displayName(model)
  setState(model === 'none' ? 'off' : 'loading')

  function setState(value: string, detail?: string, failure?: ModelFailure): void {
    state.textContent = value
    state.dataset.state = value
    state.title = detail ?? ''
    notice.hidden = value === 'ready'
    notice.className = value === 'failed' ? 'notice error' : 'notice warn'
    notice.title = detail ?? ''
    delete notice.dataset.reason
    delete notice.dataset.fallback
    if (value === 'failed') {
      showFailure(detail ?? '', failure)
      return
    }
    notice.textContent =
      value === 'off'
        ? 'No model configured: recall is keyword-only.'
        : 'Keyword-only until the model is ready.'
  }

  /** The fallback answers: why the configured model does not, with what to do about it. */
  function showFallback(detail: string, answering: string, failure?: ModelFailure): void {
    const help = explainModelFailure(failure)
    notice.hidden = false
    notice.className = 'notice warn'
    notice.dataset.reason = help.reason
    notice.dataset.fallback = answering
    notice.title = detail
    const retry = h('button', { type: 'button', id: 'model-retry', text: 'Retry' })
    retry.addEventListener('click', () => location.reload())
    notice.replaceChildren(
      h('span', { id: 'model-failure', text: help.text }),
      ` Meanwhile ${answering === USE_LITE_MODEL ? 'USE-lite' : answering} answers, so recall still finds memories by meaning. `,
      retry,
      ' ',
      selfHostLink(),
    )
  }

  function showFailure(detail: string, failure?: ModelFailure): void {
    const help = explainModelFailure(failure)
    notice.dataset.reason = help.reason
    const retry = h('button', { type: 'button', id: 'model-retry', text: 'Retry' })
    // A fresh page means a fresh worker: the load is tried again with nothing left over.
    retry.addEventListener('click', () => location.reload())
    notice.replaceChildren(h('span', { id: 'model-failure', text: help.text }))
    notice.append(' Until then, recall works by keywords only. ', retry, ' ', selfHostLink())
    if (detail) notice.append(h('span', { class: 'small muted', text: ` (${shorten(detail)})` }))
  }

  function onProgress(event: Extract<MemoryEvent, { type: 'model-progress' }>): void {
    // Per-file figures only: an aggregate (no file name) would count every byte twice.
    if (event.file && event.total > 0 && event.status !== 'progress_total') {
      files.set(event.file, { loaded: event.loaded, total: event.total })
    }
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
    download.dataset.total = String(total)
    downloadFile.textContent = `${event.status} ${event.file}`
    downloadPct.textContent =
      total > 0 ? `${Math.round(fraction * 100)}% of ${formatDownload(total)}` : event.status
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
        // The chain may have moved on to its fallback: the stats say which model and why.
        void sync()
        setState('ready')
        device.textContent = deviceLabel(event.device)
        download.value = 1
        downloadPct.textContent = '100%'
        downloadFile.textContent = 'Model ready'
        break
      case 'model-failed':
        setState('failed', event.error, {
          reason: event.reason,
          ...(event.file !== undefined && { file: event.file }),
        })
        void sync()
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
    const stats = await ctx.memory.inspect.stats()
    const embedder: EmbedderStats | undefined = stats.embedder
    why.textContent = whoAnswers(embedder)
    why.dataset.fallback = embedder?.fallback?.reason ?? ''
    if (!embedder) return
    name.textContent = embedder.model
    if (embedder.device) device.textContent = deviceLabel(embedder.device)
    if (embedder.state === 'ready') {
      setState('ready')
      if (embedder.fallback) {
        showFallback(embedder.fallback.error, embedder.model, embedder.fallback.failure)
      }
    } else if (
      embedder.state === 'failed' &&
      (state.dataset.state !== 'failed' || embedder.fallback)
    ) {
      // With a fallback that failed too, the configured model's failure is the one to explain.
      const failed = embedder.fallback ?? embedder
      setState('failed', failed.error, failed.failure)
    }
    if (stats.pendingVectors > 0 && embedder.state === 'ready') {
      onWork('Embedding memories', 0, stats.pendingVectors)
    }
  }

  ctx.on('replaced', () => void sync())
  return { sync }
}

/** Library errors can run to paragraphs; the notice keeps the gist, the tooltip the rest. */
function shorten(text: string): string {
  const clean = text.replace(/`/g, '')
  return clean.length > 180 ? `${clean.slice(0, 177)}…` : clean
}

/** The model a `?model=` value loads, as the worker will report it. */
function displayName(model: string): string {
  if (model === 'none') return 'none (keyword-only)'
  if (model === 'ngram') return 'engram/ngram-hash'
  if (model === USE_CHOICE) return USE_LITE_MODEL
  return model
}

function deviceLabel(device: string | undefined): string {
  if (!device) return '—'
  if (device === 'webgpu') return 'WebGPU'
  if (device === 'wasm') return 'WASM (CPU)'
  if (device === 'cpu') return 'CPU'
  return device
}

/** The link to the steps for serving a model from the app's own origin. */
function selfHostLink(): HTMLElement {
  return h('a', {
    id: 'model-self-host',
    href: SELF_HOSTING_DOCS,
    target: '_blank',
    rel: 'noopener',
    text: 'How to serve the model yourself',
  })
}

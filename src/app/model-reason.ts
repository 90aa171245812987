import { USE_LITE_MODEL } from '../embedder/index.ts'
import type { EmbedderStats, MemoryStats } from '../index.ts'

/** How people call the models the app ships or offers. */
const SHORT_NAMES: Record<string, string> = {
  [USE_LITE_MODEL]: 'USE-lite',
  'engram/ngram-hash': 'n-gram hashing',
}

function short(model: string): string {
  return SHORT_NAMES[model] ?? model
}

/**
 * Which model answers and why, in one sentence: the configured one, or the one the chain fell
 * back to with the reason the configured one does not answer.
 *
 * @example
 * whoAnswers({ model: 'google/universal-sentence-encoder-lite', state: 'ready', dims: 512,
 *   fallback: { from: 'Xenova/bge-small-en-v1.5', reason: 'unreachable', error: 'fetch failed' } })
 * // => 'USE-lite answers: Xenova/bge-small-en-v1.5 cannot be reached (fetch failed).'
 */
export function whoAnswers(embedder: EmbedderStats | undefined): string {
  if (!embedder) return 'No model is configured: recall finds memories by their words only.'
  const fallback = embedder.fallback
  const failed = embedder.state === 'failed'
  if (!fallback) {
    if (failed) return `${short(embedder.model)} failed to load: recall is keyword-only.`
    return embedder.state === 'ready'
      ? `${short(embedder.model)} answers, as configured.`
      : `${short(embedder.model)} is loading; recall is keyword-only until it is ready.`
  }
  const why = fallback.reason === 'unreachable' ? 'cannot be reached' : 'failed to load'
  const cause = `${fallback.from} ${why} (${fallback.error})`
  if (failed) return `Keywords only: ${cause}, and ${short(embedder.model)} failed too.`
  return `${short(embedder.model)} answers: ${cause}.`
}

/**
 * Why a write stored fewer vectors than memories, so "49 chunks, 0 embedded" is not left
 * unexplained; '' when every one was embedded.
 *
 * @example
 * notEmbeddedReason(49, 0, { embedder: { state: 'loading', … } })
 * // => 'the model is still loading: they are embedded in the background once it is ready'
 */
export function notEmbeddedReason(
  total: number,
  embedded: number,
  stats: Pick<MemoryStats, 'embedder'> | undefined,
): string {
  if (embedded >= total) return ''
  const embedder = stats?.embedder
  if (!embedder) return 'no model is configured: they are found by their words only'
  switch (embedder.state) {
    case 'failed':
      return 'the model could not load: they are found by their words only (see the Model card)'
    case 'ready':
      return 'the rest are embedded in the background'
    default:
      return 'the model is still loading: they are embedded in the background once it is ready'
  }
}

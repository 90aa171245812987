/**
 * Words the PWA and the extension's side panel share, so both count and explain alike: plurals,
 * and what a degraded recall means.
 */
import type { Degraded } from '../index.ts'

/**
 * `n` and the noun in the right number.
 *
 * @example
 * counted(1, 'memory', 'memories') // => '1 memory'
 * counted(3, 'hit') // => '3 hits'
 */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** What each `degraded` of a recall means, in the terms a user can act on. */
export const DEGRADED_WORDS: Readonly<Record<Degraded, string>> = {
  'no-embedder': 'keyword-only: no embedding model is configured',
  loading: 'keyword-only: the model is still loading',
  failed: 'keyword-only: the model could not load',
  reembedding: 'keyword-only: memories are being re-embedded for a new model',
  recency: 'newest memories only: the indexes are unavailable (see the explanations)',
}

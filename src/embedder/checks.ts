/** Option and argument checks the embedders share, each failing with a typed, named error. */

import { expectArray, expectString, integerIn, oneOf } from '../core/check-options.ts'
import type { EmbedKind } from '../core/types.ts'

/** The largest `batchSize` any embedder accepts. */
export const MAX_BATCH_SIZE = 1024

const EMBED_KINDS: readonly EmbedKind[] = ['query', 'passage']

/** `batchSize`, else `fallback`, as an integer from 1 to {@link MAX_BATCH_SIZE}. */
export function checkBatchSize(batchSize: number | undefined, fallback: number): number {
  return integerIn(batchSize ?? fallback, 'batchSize', 1, MAX_BATCH_SIZE)
}

/** What `Embedder.embed` must be given: an array of strings and a known kind. */
export function checkEmbedArgs(texts: unknown, options: { kind?: unknown } | undefined): EmbedKind {
  const list = expectArray(texts, 'texts', 'an array of strings')
  const kind = oneOf(options?.kind, EMBED_KINDS, 'kind')
  list.forEach((text, i) => {
    expectString(text, `texts[${i}]`)
  })
  return kind
}

/** An error's message, or the thrown value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Node (not a browser, worker or another runtime that mimics `process`). */
export function isNodeRuntime(): boolean {
  const proc = (globalThis as { process?: { release?: { name?: string } } }).process
  return proc?.release?.name === 'node'
}

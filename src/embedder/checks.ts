/** Option and argument checks the embedders share, each failing with a typed, named error. */

import { InvalidInputError } from '../core/errors.ts'
import type { EmbedKind } from '../core/types.ts'

/** The largest `batchSize` any embedder accepts. */
export const MAX_BATCH_SIZE = 1024

export function badOption(field: string, text: string): InvalidInputError {
  return new InvalidInputError('BAD_OPTION', field, text)
}

/** `batchSize`, else `fallback`, as an integer from 1 to {@link MAX_BATCH_SIZE}. */
export function checkBatchSize(batchSize: number | undefined, fallback: number): number {
  const size = batchSize ?? fallback
  if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
    throw badOption('batchSize', `expected an integer from 1 to ${MAX_BATCH_SIZE}, got ${size}`)
  }
  return size
}

/** What `Embedder.embed` must be given: an array of strings and a known kind. */
export function checkEmbedArgs(texts: unknown, options: { kind?: unknown } | undefined): EmbedKind {
  if (!Array.isArray(texts)) {
    throw badOption('texts', `expected an array of strings, got ${typeof texts}`)
  }
  const kind = options?.kind
  if (kind !== 'query' && kind !== 'passage') {
    throw badOption('kind', `expected 'query' or 'passage', got ${JSON.stringify(kind)}`)
  }
  const notString = texts.findIndex((text) => typeof text !== 'string')
  if (notString >= 0) {
    throw badOption(`texts[${notString}]`, `expected a string, got ${typeof texts[notString]}`)
  }
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

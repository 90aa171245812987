/**
 * Limits and sizes of long pages (`pages.remember`). Sizes are UTF-8 bytes, the unit a fact's limit
 * is counted in, and a fair proxy for embedder tokens across scripts: 1,200 bytes are about 1,200
 * characters (≈ 300 tokens) of English or 400 of Chinese or Japanese (≈ 400–600 tokens), both
 * inside bge's 512-token window.
 */

import { DEFAULT_LIMITS } from '../options.ts'
import { expectOptions, integerIn } from '../validate.ts'

/** How a page is cut into chunks. Every field is optional in {@link chunkPage}'s options. */
export interface PageChunkOptions {
  /**
   * The size a chunk is packed up to, in UTF-8 bytes: blocks and sentences are added while the
   * chunk stays within it. A single block (a code block, a table) larger than this but within
   * `maxBytes` stays whole. 200..`maxBytes`. @default 1200
   */
  targetBytes: number
  /**
   * The hard ceiling of a chunk, overlap included, in UTF-8 bytes; within a fact's limit
   * (`DEFAULT_LIMITS.maxTextBytes`, 8192). A code block or table over it is split at line
   * boundaries, a sentence over it at spaces, a run with no spaces at character boundaries.
   * `targetBytes`..8192. @default 4096
   */
  maxBytes: number
  /**
   * The longest overlap: a chunk after the first of its section starts with the last sentence
   * (or list item, or short block) of the previous chunk when that is at most this long, so a
   * passage cut in two is still found whole. Code lines of a split code block never overlap.
   * 0 turns overlap off; 0..`targetBytes / 2`. @default 300
   */
  overlapBytes: number
  /** The largest page, in UTF-8 bytes after normalisation (2 MiB). 1..2^31. @default 2097152 */
  maxPageBytes: number
}

export const DEFAULT_PAGE_CHUNKING: Readonly<PageChunkOptions> = Object.freeze({
  targetBytes: 1200,
  maxBytes: 4096,
  overlapBytes: 300,
  maxPageBytes: 2 * 1024 * 1024,
})

const NAMES = Object.keys(DEFAULT_PAGE_CHUNKING)

/**
 * Defaults under the caller's options, checked together (`targetBytes ≤ maxBytes`, overlap at
 * most half the target).
 *
 * @throws InvalidInputError `BAD_OPTION`, naming the field.
 * @example
 * resolvePageChunking({ targetBytes: 800 })
 * // => { targetBytes: 800, maxBytes: 4096, overlapBytes: 300, maxPageBytes: 2097152 }
 */
export function resolvePageChunking(options?: Partial<PageChunkOptions>): PageChunkOptions {
  const given = expectOptions(options, 'options', NAMES, 'options.')
  const merged = { ...DEFAULT_PAGE_CHUNKING, ...given } as PageChunkOptions
  const maxBytes = integerIn(merged.maxBytes, 'options.maxBytes', 200, DEFAULT_LIMITS.maxTextBytes)
  const targetBytes = integerIn(merged.targetBytes, 'options.targetBytes', 200, maxBytes)
  const overlapBytes = integerIn(
    merged.overlapBytes,
    'options.overlapBytes',
    0,
    Math.floor(targetBytes / 2),
  )
  const maxPageBytes = integerIn(merged.maxPageBytes, 'options.maxPageBytes', 1, 2 ** 31)
  return { targetBytes, maxBytes, overlapBytes, maxPageBytes }
}

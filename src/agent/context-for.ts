/**
 * Per-turn context seeding in one call: recall on the user's message, keep what is relevant,
 * and format it as the fenced block an app puts before the model's turn.
 */
import { InvalidInputError } from '../core/errors.ts'
import type { MemoryApi, RecallMode, RecallOptions, SelectHook, TrustLevel } from '../core/types.ts'
import { integer, number } from './checks.ts'
import { type FormatMemoriesOptions, packMemoriesForPrompt } from './format-memories.ts'
import { relevanceFloor } from './relevance.ts'

/** Options for {@link contextFor}. Every field is optional. */
export interface ContextOptions extends FormatMemoriesOptions {
  /** Most memories in the block. 1..100. @default 5 */
  k?: number
  /**
   * Most estimated tokens the block may take, header included: about 4 ASCII characters a
   * token and one per other character (`estimateTokens`). Whole memories are packed best
   * first. @default 1000
   */
  tokenBudget?: number
  /** @default 'default' */
  namespace?: string
  /** @default 'hybrid' */
  mode?: RecallMode
  /** Only memories of these types. @default all */
  types?: string[]
  /** Only memories carrying every one of these tags. */
  tags?: string[]
  /** Only memories at least this trusted. Use `'trusted'` when the turn can act (send, pay, run). */
  minTrust?: TrustLevel
  /**
   * Least cosine for a hit that matched no query term, alias or tag; the others always count.
   * Passed to recall as the relevance floor's raw bar (`floor: { minCosine }`), the rule
   * `memory_search` applies too; -1 switches the floor off (`floor: false`) and keeps every
   * hit. The right value depends on the embedding model. -1..1. @default 0.5
   */
  minCosine?: number
  /** A judge that narrows the hits (see `RecallOptions.select`); over a worker, wrap it in `Comlink.proxy`. */
  select?: SelectHook
  selectOptions?: RecallOptions['selectOptions']
  /** Longest query sent to recall; a longer message is cut to its first this many characters. @default 2000 */
  maxQueryLength?: number
}

/**
 * The memory block to put before the model's turn for `message`: hybrid recall, relevant hits
 * only, formatted and fenced as untrusted data by `formatMemoriesForPrompt` within
 * `tokenBudget`. `''` when the message is blank or nothing relevant is stored, so the caller can
 * always prepend the result. Errors from the memory (closed, bad option) are thrown.
 *
 * @example
 * const context = await contextFor(memory, 'Which units should the recipe use?')
 * const messages = [{ role: 'system', content: `${systemPrompt}\n\n${context}` }, userTurn]
 * // context => '<memories nonce="…">\nRecalled from long-term memory. …\n<memory id="01K…"
 * //             … why="matched [unit] …" nonce="…">\nThe owner prefers metric units\n</memory …'
 */
export async function contextFor(
  memory: MemoryApi,
  message: string,
  options: ContextOptions = {},
): Promise<string> {
  if (typeof message !== 'string') {
    throw new InvalidInputError('BAD_OPTION', 'message', `expected a string, got ${typeof message}`)
  }
  const k = integer(options.k ?? 5, 'k', 1, 100)
  const minCosine = number(options.minCosine ?? 0.5, 'minCosine', -1, 1)
  const tokenBudget = integer(
    options.tokenBudget ?? 1000,
    'tokenBudget',
    1,
    Number.MAX_SAFE_INTEGER,
  )
  const query = cut(
    message,
    integer(options.maxQueryLength ?? 2000, 'maxQueryLength', 1, Number.MAX_SAFE_INTEGER),
  )
  if (query.trim() === '') return ''
  const { hits } = await memory.recall(query, recallOptions(options, k, minCosine))
  const { flagged, explanations, nonce } = options
  return packMemoriesForPrompt(hits, { tokenBudget, flagged, explanations, nonce }).text
}

function recallOptions(options: ContextOptions, k: number, minCosine: number): RecallOptions {
  const recall: RecallOptions = {
    k,
    includeFlagged: options.flagged === 'mark',
    floor: relevanceFloor(minCosine),
  }
  if (options.namespace !== undefined) recall.namespace = options.namespace
  if (options.mode !== undefined) recall.mode = options.mode
  if (options.types !== undefined) recall.types = options.types
  if (options.tags !== undefined) recall.tags = options.tags
  if (options.minTrust !== undefined) recall.minTrust = options.minTrust
  if (options.select !== undefined) recall.select = options.select
  if (options.selectOptions !== undefined) recall.selectOptions = options.selectOptions
  return recall
}

/** The first `max` characters of `text`, never splitting a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max
  return text.slice(0, end)
}

/**
 * What a host decides for the agent tools, never the model: the namespace they live in,
 * whether they may write, the provenance of what they write, and how much a search returns.
 */
import { InvalidInputError } from '../core/errors.ts'
import type { PoisonPolicy, TrustLevel } from '../core/types.ts'
import { TRUST_LEVELS } from '../core/vocabulary.ts'
import { integer, nonEmpty, number, oneOf } from './checks.ts'
import { FLAGGED_POLICIES, type FlaggedPolicy } from './format-memories.ts'
import { MEMORY_TOOL_NAMES, type MemoryToolName } from './tool-names.ts'

/** Options for `memoryTools` (and `registerMemoryTools`). Every field is optional. */
export interface MemoryToolOptions {
  /**
   * The one namespace the tools read and write. The model never names a namespace, and
   * `memory_update`, `memory_forget`, `memory_relate` and `memory_feedback` answer "not found"
   * for an id from any other one.
   * @default 'default' (the engine's default namespace)
   */
  namespace?: string
  /** Offer only `memory_search`: no store, update, forget, relate or feedback. @default false */
  readOnly?: boolean
  /** Which tools to offer, of `MEMORY_TOOL_NAMES`. @default all (all read-only ones when `readOnly`) */
  tools?: readonly MemoryToolName[]
  /** Hits a search returns when the model does not say. 1..`maxK`. @default 5 */
  k?: number
  /** Most hits the model may ask one search for. 1..100. @default 20 */
  maxK?: number
  /**
   * `source` recorded on every memory the tools store, and on a memory whose text they change.
   * Anything but `'user'`: a model's write is never the user's own word.
   * @default 'agent'
   */
  source?: string
  /**
   * `trust` of stored memories. An update that changes a text lowers the memory's trust to this
   * level if it was higher (the model rewrote it), never raises it.
   * @default 'unverified'
   */
  trust?: TrustLevel
  /**
   * The poison screen on the tools' writes: `'reject'` refuses an instruction-like text (the
   * model gets a tool error naming the rules), `'flag'` stores it flagged. The screen cannot be
   * turned off for a model's writes. @default 'reject'
   */
  poison?: Exclude<PoisonPolicy, 'off'>
  /** Flagged memories in search results: left out, or quoted and marked. @default 'omit' */
  flagged?: FlaggedPolicy
  /** Only memories at least this trusted are searched. @default all */
  minTrust?: TrustLevel
  /**
   * Least cosine for a hit that matched no query term, alias or tag (the others always count):
   * an unrelated memory is still *some* cosine away from any query. The right value belongs to
   * the model (bge-small's unrelated pairs sit near 0.4–0.5, the n-gram test embedder's near 0).
   * Passed to recall as the relevance floor's raw bar (`floor: { minCosine }`), as `contextFor`
   * does; -1 switches the floor off (`floor: false`) and keeps every hit. -1..1. @default 0.5
   */
  minCosine?: number
  /** Most estimated tokens one search result may take (see `estimateTokens`). @default 2000 */
  tokenBudget?: number
}

/** {@link MemoryToolOptions} checked, with every default applied. */
export interface ToolSettings {
  namespace: string
  tools: MemoryToolName[]
  k: number
  maxK: number
  source: string
  trust: TrustLevel
  poison: Exclude<PoisonPolicy, 'off'>
  flagged: FlaggedPolicy
  minTrust?: TrustLevel
  minCosine: number
  tokenBudget: number
}

/** Defaults of {@link MemoryToolOptions}. */
export const DEFAULT_TOOL_SETTINGS = Object.freeze({
  namespace: 'default',
  k: 5,
  maxK: 20,
  source: 'agent',
  trust: 'unverified',
  poison: 'reject',
  flagged: 'omit',
  minCosine: 0.5,
  tokenBudget: 2000,
} as const)

const WRITING_TOOLS: readonly MemoryToolName[] = [
  'memory_store',
  'memory_update',
  'memory_forget',
  'memory_relate',
  'memory_feedback',
]

/** Checks the options (`InvalidInputError` `BAD_OPTION` naming the one at fault) and fills defaults. */
export function resolveToolSettings(options: MemoryToolOptions = {}): ToolSettings {
  const d = DEFAULT_TOOL_SETTINGS
  const maxK = integer(options.maxK ?? d.maxK, 'maxK', 1, 100)
  const settings: ToolSettings = {
    namespace: nonEmpty(options.namespace ?? d.namespace, 'namespace'),
    tools: toolList(options),
    k: integer(options.k ?? Math.min(d.k, maxK), 'k', 1, maxK),
    maxK,
    source: nonEmpty(options.source ?? d.source, 'source'),
    trust: oneOf(options.trust ?? d.trust, 'trust', TRUST_LEVELS),
    poison: oneOf(options.poison ?? d.poison, 'poison', ['reject', 'flag'] as const),
    flagged: oneOf(options.flagged ?? d.flagged, 'flagged', FLAGGED_POLICIES),
    minCosine: number(options.minCosine ?? d.minCosine, 'minCosine', -1, 1),
    tokenBudget: integer(
      options.tokenBudget ?? d.tokenBudget,
      'tokenBudget',
      1,
      Number.MAX_SAFE_INTEGER,
    ),
  }
  if (options.minTrust !== undefined) {
    settings.minTrust = oneOf(options.minTrust, 'minTrust', TRUST_LEVELS)
  }
  if (settings.source.toLowerCase() === 'user') {
    throw new InvalidInputError(
      'BAD_OPTION',
      'source',
      "expected an agent's source: what a model stores is never recorded as the user's own word",
    )
  }
  return settings
}

function toolList(options: MemoryToolOptions): MemoryToolName[] {
  const wanted = options.tools ?? MEMORY_TOOL_NAMES
  for (const [i, name] of wanted.entries()) oneOf(name, `tools[${i}]`, MEMORY_TOOL_NAMES)
  return MEMORY_TOOL_NAMES.filter(
    (name) => wanted.includes(name) && !(options.readOnly && WRITING_TOOLS.includes(name)),
  )
}

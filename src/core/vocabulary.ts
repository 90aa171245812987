/**
 * Every closed vocabulary of the contract, one `as const` list each; the types in `types.ts`
 * are derived from these lists, so the rule a check enforces is the list a type allows.
 */

/** Trust levels, most trusted first: an index in this list is a rank (lower trusts more). */
export const TRUST_LEVELS = ['trusted', 'unverified', 'untrusted'] as const

/** Writer's confidence, lowest first. */
export const CONFIDENCE_LEVELS = ['low', 'medium', 'high'] as const

export const POISON_POLICIES = ['reject', 'flag', 'off'] as const

export const RECALL_MODES = ['hybrid', 'keyword', 'semantic'] as const

/** The ranked lists fusion combines. */
export const LIST_NAMES = ['keyword', 'vector', 'alias', 'tag'] as const

export const VIAS = ['kw', 'vec', 'both', 'alias', 'tag'] as const

/**
 * Why a recall could not use every list: no embedder configured, the model still loading, the
 * model failed to load, or memories being re-embedded for a new model.
 */
export const DEGRADED_REASONS = ['no-embedder', 'loading', 'failed', 'reembedding'] as const

export const EMBEDDER_DEVICES = ['auto', 'webgpu', 'wasm', 'cpu'] as const

/** Rank of a trust level: 0 for `trusted`, larger for less trusted. */
export function trustRank(level: (typeof TRUST_LEVELS)[number]): number {
  return TRUST_LEVELS.indexOf(level)
}

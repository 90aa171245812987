import { IMPORT_LINE_FIELDS } from '../../core/contract/fields.ts'
import type { LimitOptions } from '../../core/options.ts'
import type {
  ImportLineField,
  ImportOptions,
  RememberOptions,
  TrustLevel,
} from '../../core/types.ts'
import { expectArray, expectOptions, integerIn, oneOf } from '../../core/validate.ts'
import { POISON_POLICIES, TRUST_LEVELS, trustRank } from '../../core/vocabulary.ts'
import { prepareWrite } from '../write/prepare.ts'

/** Largest `batchSize` an import accepts. */
const MAX_IMPORT_BATCH = 10_000

/** The most trust an imported line may claim when the caller does not say. */
export const DEFAULT_IMPORT_TRUST: TrustLevel = 'unverified'

const IMPORT_OPTIONS: Record<keyof ImportOptions, true> = {
  defaults: true,
  lineFields: true,
  batchSize: true,
  trust: true,
}
/**
 * What `defaults` may set: the fields a write sets, and its poison policy; not a vector, which
 * belongs to one text, nor a `supersedes`, which names one stored memory.
 */
const DEFAULT_NAMES: readonly string[] = [...IMPORT_LINE_FIELDS, 'poison']

/**
 * Checks `transfer.import` options; returns the batch size to use. The fields of `defaults` are
 * checked with the first line (they need the limits).
 *
 * @throws InvalidInputError `BAD_OPTION`: not an object, an unknown name (also inside
 *   `defaults`), `batchSize` not an integer 1..10000 (0 would never advance), `defaults` not an
 *   object, `trust` not a trust level, `lineFields` not a list of line fields.
 */
export function checkImportOptions(options: unknown, fallback: number): number {
  const o = expectOptions(options, 'options', Object.keys(IMPORT_OPTIONS), '')
  if (o.defaults !== undefined) expectOptions(o.defaults, 'defaults', DEFAULT_NAMES, 'defaults.')
  if (o.trust !== undefined) oneOf(o.trust, TRUST_LEVELS, 'trust')
  if (o.lineFields !== undefined) {
    expectArray(o.lineFields, 'lineFields', 'an array of field names').forEach((name, i) => {
      oneOf(name, IMPORT_LINE_FIELDS, `lineFields[${i}]`)
    })
  }
  return o.batchSize === undefined
    ? fallback
    : integerIn(o.batchSize, 'batchSize', 1, MAX_IMPORT_BATCH)
}

/** The caller's rules for every line of one import. */
export interface LinePolicy {
  defaults: RememberOptions
  lineFields: ReadonlySet<ImportLineField>
  maxTrust: TrustLevel
  limits: LimitOptions
  /** Instants later than this are brought back to it. */
  now: number
  vectorsUsable: boolean
}

/** The policy of one import; the caller's `defaults` checked once, before the first line. */
export function linePolicy(
  options: Pick<ImportOptions, 'defaults' | 'trust' | 'lineFields'> | undefined,
  limits: LimitOptions,
  now: number,
): LinePolicy {
  const defaults = options?.defaults ?? {}
  if (Object.keys(defaults).length > 0) checkDefaults(defaults, limits)
  return {
    defaults,
    lineFields: new Set(options?.lineFields ?? []),
    maxTrust: options?.trust ?? DEFAULT_IMPORT_TRUST,
    limits,
    now,
    vectorsUsable: false,
  }
}

/** The caller's `defaults`, checked once as a write of their own would be. */
function checkDefaults(defaults: RememberOptions, limits: LimitOptions): void {
  expectOptions(defaults, 'defaults', DEFAULT_NAMES, 'defaults.')
  if (defaults.poison !== undefined) oneOf(defaults.poison, POISON_POLICIES, 'defaults.poison')
  // The screen is the lines' business: a default is checked for shape and characters only.
  prepareWrite('defaults', { ...defaults, poison: 'off' }, limits, 'defaults.')
}

/** The less trusted of `claim` and `max`. An unknown level is left for prepareWrite to reject. */
function capTrust(claim: unknown, max: TrustLevel): unknown {
  return TRUST_LEVELS.includes(claim as TrustLevel) &&
    trustRank(claim as TrustLevel) < trustRank(max)
    ? max
    : claim
}

/**
 * The options a line is written with: per field, the caller's default when it set one (unless
 * `lineFields` lets the line choose), else the line's own value. A line's own trust is capped;
 * the caller's is its word. The poison policy is the caller's only, never the file's: a hostile
 * line must not be able to switch the screen off for itself.
 */
export function lineOptions(record: Record<string, unknown>, policy: LinePolicy): RememberOptions {
  const { defaults, lineFields, maxTrust } = policy
  const options: Record<string, unknown> = { poison: defaults.poison ?? 'flag' }
  for (const field of IMPORT_LINE_FIELDS) {
    const callers = defaults[field]
    const claimed = record[field]
    const lineWins = claimed !== undefined && (callers === undefined || lineFields.has(field))
    if (lineWins) options[field] = field === 'trust' ? capTrust(claimed, maxTrust) : claimed
    else if (callers !== undefined) options[field] = callers
  }
  options.source ??= 'import'
  options.trust ??= capTrust(DEFAULT_IMPORT_TRUST, maxTrust)
  return options as RememberOptions
}

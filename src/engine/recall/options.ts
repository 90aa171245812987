import type { LimitOptions, RetrievalOptions, SelectOptions } from '../../core/options.ts'
import { DEFAULT_NAMESPACE, DEFAULT_RECALL_LOG_READ, DEFAULT_SELECT } from '../../core/options.ts'
import { DEFAULT_FLOOR_POLICY, type FloorPolicy } from '../../core/recall/floor.ts'
import type {
  ListName,
  RecallMode,
  RecallOptions,
  SelectHook,
  TrustLevel,
} from '../../core/types.ts'
import {
  badOption,
  booleanOr,
  expectFunction,
  expectOptions,
  integerIn,
  numberIn,
  oneOf,
  validateK,
  validateName,
  validateNames,
  validateQuery,
  validateTags,
} from '../../core/validate.ts'
import { LIST_NAMES, RECALL_MODES, TRUST_LEVELS } from '../../core/vocabulary.ts'

/** Recall options with defaults applied and types checked. */
export interface CheckedRecallOptions {
  /** The query, checked and normalised ({@link validateQuery}). */
  query: string
  k: number
  mode: RecallMode
  namespace: string
  types?: string[]
  tags?: string[]
  weights: Record<ListName, number>
  explain: boolean
  minTrust?: TrustLevel
  includeFlagged: boolean
  includeExpired: boolean
  includeSuperseded: boolean
  expand: number
  tokenBudget?: number
  boosts: boolean
  log: boolean
  collapsePages: boolean
  select?: SelectHook
  selectOptions: SelectOptions
  /** The relevance floor's bars, or null when `floor: false`. */
  floor: FloorPolicy | null
}

const RECALL_OPTIONS: Record<keyof RecallOptions, true> = {
  k: true,
  mode: true,
  namespace: true,
  types: true,
  tags: true,
  weights: true,
  explain: true,
  minTrust: true,
  includeFlagged: true,
  includeExpired: true,
  includeSuperseded: true,
  expand: true,
  tokenBudget: true,
  boosts: true,
  log: true,
  collapsePages: true,
  select: true,
  selectOptions: true,
  floor: true,
}
const RECALL_OPTION_NAMES = Object.keys(RECALL_OPTIONS)

/** Most types a recall may filter on. */
const MAX_TYPES = 64

/**
 * Checks a recall: the query with the same character rules as stored text ({@link validateQuery}),
 * then every option, each by its one check. Unknown option names are rejected.
 *
 * @throws InvalidInputError `BAD_OPTION` and the text codes, naming the field.
 */
export function checkRecallOptions(
  query: unknown,
  options: RecallOptions | undefined,
  retrieval: RetrievalOptions,
  limits: LimitOptions,
): CheckedRecallOptions {
  const clean = validateQuery(query, limits.maxQueryLength)
  const o = expectOptions(options, 'options', RECALL_OPTION_NAMES, '') as RecallOptions
  const checked: CheckedRecallOptions = {
    query: clean,
    // A budget, not a count, decides how many hits a budgeted recall returns unless `k` says.
    k: validateK(o.k ?? (o.tokenBudget !== undefined ? limits.maxK : retrieval.k), limits.maxK),
    mode: oneOf(o.mode ?? 'hybrid', RECALL_MODES, 'mode'),
    namespace: validateName(o.namespace ?? DEFAULT_NAMESPACE, 'namespace'),
    weights: checkWeights(o.weights),
    explain: booleanOr(o.explain, true, 'explain'),
    includeFlagged: booleanOr(o.includeFlagged, true, 'includeFlagged'),
    includeExpired: booleanOr(o.includeExpired, false, 'includeExpired'),
    includeSuperseded: booleanOr(o.includeSuperseded, false, 'includeSuperseded'),
    // One hop only: deeper expansion would pull in most of a well-connected memory.
    expand: o.expand === undefined ? 0 : integerIn(o.expand, 'expand', 0, 1),
    boosts: booleanOr(o.boosts, true, 'boosts'),
    log: booleanOr(o.log, true, 'log'),
    collapsePages: booleanOr(o.collapsePages, true, 'collapsePages'),
    selectOptions: checkSelectOptions(o.selectOptions),
    floor: checkFloor(o.floor),
  }
  if (o.select !== undefined)
    checked.select = expectFunction<SelectHook>(
      o.select,
      'select',
      'a function (query, hits) => ids',
    )
  if (o.types !== undefined) checked.types = validateNames(o.types, 'types', MAX_TYPES)
  if (o.tags !== undefined)
    checked.tags = validateTags(o.tags, 'tags', limits.maxTags, limits.maxTagLength)
  if (o.tokenBudget !== undefined)
    checked.tokenBudget = integerIn(o.tokenBudget, 'tokenBudget', 1, 1_000_000)
  if (o.minTrust !== undefined) checked.minTrust = oneOf(o.minTrust, TRUST_LEVELS, 'minTrust')
  return checked
}

function checkWeights(value: unknown): Record<ListName, number> {
  const weights: Record<ListName, number> = { keyword: 1, vector: 1, alias: 1, tag: 1 }
  const given = expectOptions(value, 'weights', LIST_NAMES, 'weights.')
  for (const name of LIST_NAMES) {
    const weight = given[name]
    if (weight !== undefined)
      weights[name] = numberIn(weight, `weights.${name}`, 0, Number.POSITIVE_INFINITY)
  }
  return weights
}

/** Upper bound of each floor bar; lifts are in spreads, beyond 100 every cosine is noise. */
const FLOOR_LIMITS: Record<keyof FloorPolicy, number> = {
  queryCoverage: 1,
  queryLift: 100,
  hitLift: 100,
}

/**
 * `floor`: `true` or absent for {@link DEFAULT_FLOOR_POLICY}, `false` for none, or an object
 * overriding some bars (`queryCoverage` 0..1, `queryLift` and `hitLift` 0..100 spreads).
 */
function checkFloor(value: unknown): FloorPolicy | null {
  if (value === undefined || value === true) return { ...DEFAULT_FLOOR_POLICY }
  if (value === false) return null
  if (value === null || typeof value !== 'object') {
    throw badOption('floor', 'true, false or { queryCoverage?, queryLift?, hitLift? }', value)
  }
  return overrides(value, 'floor', DEFAULT_FLOOR_POLICY, FLOOR_LIMITS, (v, f, max) =>
    numberIn(v, f, 0, max),
  )
}

const SELECT_LIMITS: Record<keyof SelectOptions, number> = {
  candidates: 100,
  keep: 100,
  timeoutMs: 600_000,
}

function checkSelectOptions(value: unknown): SelectOptions {
  return overrides(value, 'selectOptions', DEFAULT_SELECT, SELECT_LIMITS, (v, f, max) =>
    integerIn(v, f, 1, max),
  )
}

/**
 * A small numeric record (`floor`, `selectOptions`): `defaults` with the fields `value` gives,
 * each checked against its upper bound in `limits`; an unknown name is rejected.
 */
function overrides<T extends { [K in keyof T]: number }>(
  value: unknown,
  field: string,
  defaults: Readonly<T>,
  limits: Record<keyof T, number>,
  check: (value: unknown, field: string, max: number) => number,
): T {
  const names = Object.keys(limits) as (keyof T & string)[]
  const given = expectOptions(value, field, names, `${field}.`)
  const out: T = { ...defaults }
  for (const name of names) {
    if (given[name] !== undefined)
      out[name] = check(given[name], `${field}.${name}`, limits[name]) as T[keyof T & string]
  }
  return out
}

/** Most recall-log entries one read returns. */
const MAX_LOG_LIMIT = 1_000_000

/**
 * Checks `inspect.recallLog` options; returns the number of entries to read.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, an unknown name, `limit` not an integer
 *   1..1000000).
 */
export function checkRecallLogOptions(options: unknown): number {
  const o = expectOptions(options, 'options', ['limit'], '')
  return o.limit === undefined
    ? DEFAULT_RECALL_LOG_READ
    : integerIn(o.limit, 'limit', 1, MAX_LOG_LIMIT)
}

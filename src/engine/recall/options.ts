import { DEFAULT_TIME, MAX_CONTEXT, type TimeSettings } from '../../core/defaults/time.ts'
import type {
  BoostOptions,
  LimitOptions,
  RecallDefaults,
  SelectOptions,
} from '../../core/options.ts'
import {
  DEFAULT_BOOSTS,
  DEFAULT_NAMESPACE,
  DEFAULT_RECALL,
  DEFAULT_RECALL_LOG_READ,
  DEFAULT_SELECT,
} from '../../core/options.ts'
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
  validateInstant,
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
  /** The boosts' factors, or null when `boosts: false`. */
  boosts: BoostOptions | null
  log: boolean
  collapsePages: boolean
  select?: SelectHook
  selectOptions: SelectOptions
  /** The relevance floor's bars, or null when `floor: false`. */
  floor: FloorPolicy | null
  /** Hard filters on the memory's time, epoch ms: `since` inclusive, `until` exclusive. */
  since?: number
  until?: number
  /** How the query's time words boost, or null when `time: false`. */
  time: TimeSettings | null
  /** Neighbours each hit brings on each side, 0..10. */
  context: number
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
  since: true,
  until: true,
  time: true,
  context: true,
}
const RECALL_OPTION_NAMES = Object.keys(RECALL_OPTIONS)
/**
 * Options a call may give but the engine may not default: `select` is a function, and
 * `since`/`until` are one question's window (an engine-wide one would hide everything outside it
 * from every recall, `timeline` aside, with nothing in a result saying so).
 */
const PER_CALL_ONLY: ReadonlySet<string> = new Set(['select', 'since', 'until'])
const RECALL_DEFAULT_NAMES = RECALL_OPTION_NAMES.filter((name) => !PER_CALL_ONLY.has(name))

/** Most types a recall may filter on. */
const MAX_TYPES = 64

/**
 * Checks a recall: the query with the same character rules as stored text ({@link validateQuery}),
 * then every option, each by its one check, after the engine's `recallDefaults` are merged under
 * them ({@link mergeRecallOptions}). Unknown option names are rejected.
 *
 * @throws InvalidInputError `BAD_OPTION` and the text codes, naming the field.
 */
export function checkRecallOptions(
  query: unknown,
  options: RecallOptions | undefined,
  defaults: RecallDefaults,
  limits: LimitOptions,
): CheckedRecallOptions {
  const clean = validateQuery(query, limits.maxQueryLength)
  const given = expectOptions(options, 'options', RECALL_OPTION_NAMES, '') as RecallOptions
  return { query: clean, ...resolveRecallOptions(mergeRecallOptions(defaults, given), limits, '') }
}

/**
 * Checks `EngineOptions.recallDefaults` at open, by the same checks as a recall's options, each
 * error naming `recallDefaults.<field>`; returns them as given.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 */
export function checkRecallDefaults(value: unknown, limits: LimitOptions): RecallDefaults {
  const prefix = 'recallDefaults.'
  const named = isRecord(value) ? value : {}
  for (const name of Object.keys(named)) {
    if (PER_CALL_ONLY.has(name)) {
      throw badOption(`${prefix}${name}`, `no engine-wide ${name}: give it per recall`, named[name])
    }
  }
  const given = expectOptions(value, 'recallDefaults', RECALL_DEFAULT_NAMES, prefix)
  resolveRecallOptions(given as RecallDefaults, limits, prefix)
  return given as RecallDefaults
}

/** The record options whose fields merge one by one; the others are replaced whole. */
const MERGED_BY_FIELD = ['weights', 'selectOptions'] as const
/** The options that are `true`, `false` or an object of settings over their defaults. */
const SWITCHED_SETTINGS = ['floor', 'boosts', 'time'] as const

/**
 * The one merge of engine-wide defaults under a call's options (MiniSearch's `searchOptions`):
 * a call's value wins; `weights` and `selectOptions` merge field by field; `floor` and `boosts`
 * are `false` (off), `true` (on with the engine's settings) or an object merged over the
 * engine's settings. Values are not checked here: the merged options are.
 *
 * @example
 * mergeRecallOptions({ k: 8, floor: { hitLift: 1 } }, { floor: { minCosine: 0.5 } })
 * // => { k: 8, floor: { hitLift: 1, minCosine: 0.5 } }
 */
export function mergeRecallOptions(
  defaults: RecallDefaults,
  options: RecallOptions,
): RecallOptions {
  const merged: Record<string, unknown> = { ...defaults }
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined) merged[name] = value
  }
  const under = defaults as Record<string, unknown>
  const over = options as Record<string, unknown>
  for (const name of MERGED_BY_FIELD) {
    if (isRecord(under[name]) && isRecord(over[name]))
      merged[name] = { ...under[name], ...over[name] }
  }
  for (const name of SWITCHED_SETTINGS) {
    const base = under[name]
    const given = over[name]
    if (!isRecord(base)) continue
    if (given === true) merged[name] = base
    else if (isRecord(given)) merged[name] = { ...base, ...given }
  }
  return merged as RecallOptions
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Every option of `o` checked, field names under `prefix`, defaults filled in. */
function resolveRecallOptions(
  o: RecallOptions,
  limits: LimitOptions,
  prefix: string,
): Omit<CheckedRecallOptions, 'query'> {
  const at = (name: string): string => prefix + name
  const d = DEFAULT_RECALL
  const checked: Omit<CheckedRecallOptions, 'query'> = {
    // A budget, not a count, decides how many hits a budgeted recall returns unless `k` says.
    k: validateK(o.k ?? (o.tokenBudget !== undefined ? limits.maxK : d.k), limits.maxK, at('k')),
    mode: oneOf(o.mode ?? d.mode, RECALL_MODES, at('mode')),
    namespace: validateName(o.namespace ?? DEFAULT_NAMESPACE, at('namespace')),
    weights: checkWeights(o.weights, at('weights')),
    explain: booleanOr(o.explain, d.explain, at('explain')),
    includeFlagged: booleanOr(o.includeFlagged, d.includeFlagged, at('includeFlagged')),
    includeExpired: booleanOr(o.includeExpired, d.includeExpired, at('includeExpired')),
    includeSuperseded: booleanOr(o.includeSuperseded, d.includeSuperseded, at('includeSuperseded')),
    // One hop only: deeper expansion would pull in most of a well-connected memory.
    expand: o.expand === undefined ? d.expand : integerIn(o.expand, at('expand'), 0, 1),
    boosts: checkBoosts(o.boosts, at('boosts')),
    log: booleanOr(o.log, d.log, at('log')),
    collapsePages: booleanOr(o.collapsePages, d.collapsePages, at('collapsePages')),
    selectOptions: checkSelectOptions(o.selectOptions, at('selectOptions')),
    floor: checkFloor(o.floor, at('floor')),
    time: checkTime(o.time, at('time')),
    context: o.context === undefined ? 0 : integerIn(o.context, at('context'), 0, MAX_CONTEXT),
  }
  checkTimeFilter(checked, o, at)
  if (o.select !== undefined)
    checked.select = expectFunction<SelectHook>(
      o.select,
      at('select'),
      'a function (query, hits) => ids',
    )
  if (o.types !== undefined) checked.types = validateNames(o.types, at('types'), MAX_TYPES)
  if (o.tags !== undefined)
    checked.tags = validateTags(o.tags, at('tags'), limits.maxTags, limits.maxTagLength)
  if (o.tokenBudget !== undefined)
    checked.tokenBudget = integerIn(o.tokenBudget, at('tokenBudget'), 1, 1_000_000)
  if (o.minTrust !== undefined) checked.minTrust = oneOf(o.minTrust, TRUST_LEVELS, at('minTrust'))
  return checked
}

/**
 * `since` and `until`: instants (`validateInstant`), `since` before `until`: an empty window is
 * a caller's slip, not a question with no answer.
 */
function checkTimeFilter(
  checked: Pick<CheckedRecallOptions, 'since' | 'until'>,
  o: RecallOptions,
  at: (name: string) => string,
): void {
  if (o.since !== undefined) checked.since = validateInstant(o.since, at('since'))
  if (o.until !== undefined) checked.until = validateInstant(o.until, at('until'))
  if (
    checked.since !== undefined &&
    checked.until !== undefined &&
    checked.since >= checked.until
  ) {
    throw badOption(at('until'), `an instant after since (${checked.since})`, checked.until)
  }
}

function checkWeights(value: unknown, field: string): Record<ListName, number> {
  const weights: Record<ListName, number> = { keyword: 1, vector: 1, alias: 1, tag: 1 }
  const given = expectOptions(value, field, LIST_NAMES, `${field}.`)
  for (const name of LIST_NAMES) {
    const weight = given[name]
    if (weight !== undefined)
      weights[name] = numberIn(weight, `${field}.${name}`, 0, Number.POSITIVE_INFINITY)
  }
  return weights
}

/**
 * The range of each floor bar; lifts are in spreads, beyond 100 every cosine is noise; a cosine
 * runs from -1 (no bar) to 1.
 */
const FLOOR_RANGES: Record<keyof FloorPolicy, [number, number]> = {
  queryCoverage: [0, 1],
  queryLift: [0, 100],
  hitLift: [0, 100],
  minCosine: [-1, 1],
}

/**
 * `floor`: `true` or absent for {@link DEFAULT_FLOOR_POLICY}, `false` for none, or an object
 * overriding some bars (`queryCoverage` 0..1, `queryLift` and `hitLift` 0..100 spreads,
 * `minCosine` -1..1).
 */
function checkFloor(value: unknown, field: string): FloorPolicy | null {
  return switched(value, field, DEFAULT_FLOOR_POLICY, FLOOR_RANGES)
}

const UNBOUNDED: [number, number] = [0, Number.POSITIVE_INFINITY]

/** Each boost setting is a factor, a step or a window: ≥ 0. */
const BOOST_RANGES: Record<keyof BoostOptions, [number, number]> = {
  recencyDays: UNBOUNDED,
  recency: UNBOUNDED,
  highConfidence: UNBOUNDED,
  lowConfidence: UNBOUNDED,
  frequencyStep: UNBOUNDED,
  frequencyCap: UNBOUNDED,
}

/** `boosts`: `true` or absent for {@link DEFAULT_BOOSTS}, `false` for none, or some factors. */
function checkBoosts(value: unknown, field: string): BoostOptions | null {
  return switched(value, field, DEFAULT_BOOSTS, BOOST_RANGES)
}

/**
 * A setting switched on or off or tuned (`floor`, `boosts`): `true` or absent gives `defaults`,
 * `false` null, an object its numbers over `defaults`, each within its range.
 */
function switched<T extends { [K in keyof T]: number }>(
  value: unknown,
  field: string,
  defaults: Readonly<T>,
  ranges: Record<keyof T, [number, number]>,
): T | null {
  if (value === undefined || value === true) return { ...defaults }
  if (value === false) return null
  if (value === null || typeof value !== 'object') {
    const shape = Object.keys(ranges).map((name) => `${name}?`)
    throw badOption(field, `true, false or { ${shape.join(', ')} }`, value)
  }
  return overrides(value, field, defaults, ranges, (v, f, [min, max]) => numberIn(v, f, min, max))
}

/** The time boost's factor (≥ 0, 1 is no boost) and the calendar's offset from UTC in minutes. */
const TIME_RANGES: Record<keyof TimeSettings, [number, number]> = {
  factor: UNBOUNDED,
  offsetMinutes: [-840, 840],
}

/** `time`: `true` or absent for {@link DEFAULT_TIME}, `false` for none, or some settings. */
function checkTime(value: unknown, field: string): TimeSettings | null {
  const settings = switched(value, field, DEFAULT_TIME, TIME_RANGES)
  if (settings && !Number.isInteger(settings.offsetMinutes)) {
    throw badOption(`${field}.offsetMinutes`, 'a whole number of minutes', settings.offsetMinutes)
  }
  return settings
}

const SELECT_LIMITS: Record<keyof SelectOptions, number> = {
  candidates: 100,
  keep: 100,
  timeoutMs: 600_000,
}

function checkSelectOptions(value: unknown, field: string): SelectOptions {
  return overrides(value, field, DEFAULT_SELECT, SELECT_LIMITS, (v, f, max) =>
    integerIn(v, f, 1, max),
  )
}

/**
 * A small numeric record (`floor`, `boosts`, `selectOptions`): `defaults` with the fields
 * `value` gives, each checked against its bound in `limits`; an unknown name is rejected.
 */
function overrides<T extends { [K in keyof T]: number }, L>(
  value: unknown,
  field: string,
  defaults: Readonly<T>,
  limits: Record<keyof T, L>,
  check: (value: unknown, field: string, limit: L) => number,
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

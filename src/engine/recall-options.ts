import { InvalidInputError } from '../core/errors.ts'
import type { LimitOptions, RetrievalOptions, SelectOptions } from '../core/options.ts'
import { DEFAULT_NAMESPACE, DEFAULT_SELECT } from '../core/options.ts'
import type { ListName, RecallMode, RecallOptions, SelectHook, TrustLevel } from '../core/types.ts'
import { assertOneOf, validateAliases, validateK, validateTags } from '../core/validate.ts'
import { describe } from './prepare.ts'

const MODES: RecallMode[] = ['hybrid', 'keyword', 'semantic']
const TRUST: TrustLevel[] = ['trusted', 'unverified', 'untrusted']
const LISTS: ListName[] = ['keyword', 'vector', 'alias', 'tag']

/** Recall options with defaults applied and types checked. */
export interface CheckedRecallOptions {
  k: number
  mode: RecallMode
  namespace: string
  types?: string[]
  tags?: string[]
  weights: Record<ListName, number>
  explain: boolean
  minTrust?: TrustLevel
  includeFlagged: boolean
  boosts: boolean
  log: boolean
  select?: SelectHook
  selectOptions: SelectOptions
}

export function checkRecallOptions(
  query: unknown,
  options: RecallOptions | undefined,
  retrieval: RetrievalOptions,
  limits: LimitOptions,
): CheckedRecallOptions {
  if (typeof query !== 'string') {
    throw new InvalidInputError('BAD_OPTION', 'query', `expected a string, got ${describe(query)}`)
  }
  if (query.trim() === '')
    throw new InvalidInputError(
      'EMPTY_TEXT',
      'query',
      'expected some text to search for, got an empty query',
    )
  if (query.length > limits.maxQueryLength) {
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      'query',
      `expected at most ${limits.maxQueryLength} characters, got ${query.length}`,
    )
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'options',
      `expected an object, got ${describe(options)}`,
    )
  }
  const o = options ?? {}
  const mode = o.mode ?? 'hybrid'
  assertOneOf(mode, MODES, 'mode')
  if (o.minTrust !== undefined) assertOneOf(o.minTrust, TRUST, 'minTrust')
  const namespace = o.namespace ?? DEFAULT_NAMESPACE
  if (typeof namespace !== 'string' || namespace === '') {
    throw new InvalidInputError(
      'BAD_OPTION',
      'namespace',
      `expected a non-empty string, got ${describe(namespace)}`,
    )
  }
  const weights = { keyword: 1, vector: 1, alias: 1, tag: 1 }
  if (o.weights !== undefined) {
    if (!o.weights || typeof o.weights !== 'object') {
      throw new InvalidInputError(
        'BAD_OPTION',
        'weights',
        `expected an object, got ${describe(o.weights)}`,
      )
    }
    for (const [name, weight] of Object.entries(o.weights)) {
      if (!LISTS.includes(name as ListName)) {
        throw new InvalidInputError(
          'BAD_OPTION',
          `weights.${name}`,
          `expected one of ${LISTS.join(', ')}`,
        )
      }
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
        throw new InvalidInputError(
          'BAD_OPTION',
          `weights.${name}`,
          `expected a finite number ≥ 0, got ${describe(weight)}`,
        )
      }
      weights[name as ListName] = weight
    }
  }
  const checked: CheckedRecallOptions = {
    k: validateK(o.k ?? retrieval.k, limits.maxK),
    mode,
    namespace,
    weights,
    explain: o.explain ?? true,
    includeFlagged: o.includeFlagged ?? true,
    boosts: o.boosts ?? true,
    log: o.log ?? true,
    selectOptions: checkSelectOptions(o.selectOptions),
  }
  if (o.select !== undefined) {
    if (typeof o.select !== 'function') {
      throw new InvalidInputError(
        'BAD_OPTION',
        'select',
        `expected a function (query, hits) => ids, got ${describe(o.select)}`,
      )
    }
    checked.select = o.select
  }
  if (o.types !== undefined) checked.types = validateAliases(o.types, 'types', 64, 256)
  if (o.tags !== undefined)
    checked.tags = validateTags(o.tags, 'tags', limits.maxTags, limits.maxTagLength)
  if (o.minTrust !== undefined) checked.minTrust = o.minTrust
  return checked
}

const SELECT_LIMITS: Record<keyof SelectOptions, number> = {
  candidates: 100,
  keep: 100,
  timeoutMs: 600_000,
}

function checkSelectOptions(value: RecallOptions['selectOptions']): SelectOptions {
  if (value === undefined) return { ...DEFAULT_SELECT }
  if (!value || typeof value !== 'object') {
    throw new InvalidInputError(
      'BAD_OPTION',
      'selectOptions',
      `expected an object, got ${describe(value)}`,
    )
  }
  const out = { ...DEFAULT_SELECT }
  for (const name of Object.keys(SELECT_LIMITS) as (keyof SelectOptions)[]) {
    const given = value[name]
    if (given === undefined) continue
    const max = SELECT_LIMITS[name]
    if (typeof given !== 'number' || !Number.isInteger(given) || given < 1 || given > max) {
      throw new InvalidInputError(
        'BAD_OPTION',
        `selectOptions.${name}`,
        `expected an integer 1..${max}, got ${describe(given)}`,
      )
    }
    out[name] = given
  }
  return out
}

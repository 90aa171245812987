/**
 * The fields of a memory as data: one row per field of {@link Memory} saying how a caller's value
 * is checked, who may set it, how it is stored under encryption at rest, and which indexes read
 * it. The write path's option lists (`remember`, `update`, an import line) and the at-rest rules
 * of the `memories` table are derived from this table, and the compiler refuses a `Memory` field
 * without a row, so a new field is one row here and nothing else to keep in step.
 *
 * @example
 * fieldsWhere((row) => row.atRest === 'hashed-each')
 * // => ['tags']
 */

import { CONFIDENCE_VALUES } from '../defaults/lifecycle.ts'
import { type LimitOptions, MAX_SUMMARY_BYTES } from '../defaults/write.ts'
import {
  numberIn,
  oneOf,
  validateAliases,
  validateName,
  validateTags,
  validateText,
  validateTime,
} from '../validate.ts'
import { validateMeta } from '../validate-meta.ts'
import { CONFIDENCE_LEVELS, TIERS, TRUST_LEVELS } from '../vocabulary.ts'
import type { Memory } from './memory.ts'

/**
 * Who may give a field a value: `remember` (an option of a write, or its text), `update` (a
 * field of a patch), `import` (a line of an export file, restored as it was). A field no one
 * may set is the engine's own (`key`, `flags`, `archivedAt`).
 */
export type FieldSetter = 'remember' | 'update' | 'import'

/**
 * How a field is stored under encryption at rest: `plain` (readable: keys, indexed names,
 * lifecycle numbers that say when and how often, not what), `hashed` (an indexed field that does
 * reveal content, replaced by a keyed token that still matches by equality), `hashed-each` (a
 * multi-entry index, hashed entry by entry) or `sealed` (encrypted with the rest of the row).
 */
export type AtRestForm = 'plain' | 'hashed' | 'hashed-each' | 'sealed'

/** What reads a field to find memories: the BM25 leg, the embedded text, a Dexie index. */
export type FieldIndex = 'keyword' | 'vector' | 'dexie'

/**
 * The check a caller's value passes: it throws `InvalidInputError` naming `field`, else returns
 * the value as stored (trimmed, normalised, a confidence word as its number).
 */
export type FieldCheck = (value: unknown, field: string, limits: LimitOptions) => unknown

export interface FieldRow {
  /**
   * The check of a value a write or a patch gives. `null` for a field the engine computes, and
   * for one only an import restores: the import checks those against its clock (an exported
   * instant may not lie in the future) in `engine/transfer/parse-import.ts`.
   */
  readonly check: FieldCheck | null
  readonly setBy: readonly FieldSetter[]
  readonly atRest: AtRestForm
  readonly indexed: readonly FieldIndex[]
}

/** A field named by a row: every field of {@link Memory}. */
export type FieldName = keyof Memory

const text: FieldCheck = (value, field, limits) => validateText(value, field, limits.maxTextBytes)
const name: FieldCheck = (value, field) => validateName(value, field)
const time: FieldCheck = (value, field) => validateTime(value, field)

/** A confidence given as a level word or a number 0..1, as the number stored. */
const confidence: FieldCheck = (value, field) =>
  typeof value === 'number'
    ? numberIn(value, field, 0, 1)
    : CONFIDENCE_VALUES[oneOf(value, CONFIDENCE_LEVELS, field)]

const ALL = ['remember', 'update', 'import'] as const
const WRITE = ['remember', 'import'] as const
const RESTORED = ['import'] as const
const ENGINE = [] as const

/** One row per field of {@link Memory}, in its order. */
export const FIELDS = {
  id: { check: null, setBy: RESTORED, atRest: 'plain', indexed: ['dexie'] },
  namespace: { check: name, setBy: WRITE, atRest: 'plain', indexed: ['dexie'] },
  type: { check: name, setBy: ALL, atRest: 'plain', indexed: ['dexie'] },
  text: { check: text, setBy: ALL, atRest: 'sealed', indexed: ['keyword', 'vector'] },
  // The normalised text: exact dedup's unique index.
  key: { check: null, setBy: ENGINE, atRest: 'hashed', indexed: ['dexie'] },
  tags: {
    check: (v, f, l) => validateTags(v, f, l.maxTags, l.maxTagLength),
    setBy: ALL,
    atRest: 'hashed-each',
    indexed: ['keyword', 'dexie'],
  },
  aliases: {
    check: (v, f, l) => validateAliases(v, f, l.maxAliases, l.maxAliasLength),
    setBy: ALL,
    atRest: 'sealed',
    indexed: ['keyword'],
  },
  source: { check: name, setBy: ALL, atRest: 'sealed', indexed: [] },
  trust: { check: (v, f) => oneOf(v, TRUST_LEVELS, f), setBy: ALL, atRest: 'plain', indexed: [] },
  confidence: { check: confidence, setBy: ALL, atRest: 'plain', indexed: [] },
  tier: { check: (v, f) => oneOf(v, TIERS, f), setBy: ALL, atRest: 'plain', indexed: [] },
  summary: {
    check: (v, f) => validateText(v, f, MAX_SUMMARY_BYTES),
    setBy: ALL,
    atRest: 'sealed',
    indexed: [],
  },
  needsReview: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  archivedAt: { check: null, setBy: ENGINE, atRest: 'plain', indexed: [] },
  flags: { check: null, setBy: ENGINE, atRest: 'sealed', indexed: [] },
  createdAt: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  updatedAt: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  confirmedAt: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  confirmations: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  recallCount: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  lastRecalledAt: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  expiresAt: { check: time, setBy: ALL, atRest: 'plain', indexed: [] },
  // When, not what: plain like the other instants, so timeline and the time filters read it.
  happenedAt: { check: time, setBy: ALL, atRest: 'plain', indexed: [] },
  happenedUntil: { check: time, setBy: ALL, atRest: 'plain', indexed: [] },
  pageId: { check: null, setBy: RESTORED, atRest: 'plain', indexed: ['dexie'] },
  chunk: { check: null, setBy: RESTORED, atRest: 'plain', indexed: [] },
  page: { check: null, setBy: RESTORED, atRest: 'sealed', indexed: [] },
  meta: { check: (v, f) => validateMeta(v, f), setBy: ALL, atRest: 'sealed', indexed: [] },
} as const satisfies Record<FieldName, FieldRow>

type Rows = typeof FIELDS

/** The fields `setter` may set, as a type. */
export type FieldsSetBy<S extends FieldSetter> = {
  [K in FieldName]: S extends Rows[K]['setBy'][number] ? K : never
}[FieldName]

/** The fields whose row passes `keep`, in the order of {@link Memory}. */
export function fieldsWhere(keep: (row: FieldRow) => boolean): FieldName[] {
  return (Object.keys(FIELDS) as FieldName[]).filter((field) => keep(FIELDS[field]))
}

/** The fields `setter` may set, in the order of {@link Memory}. */
export function fieldsSetBy<S extends FieldSetter>(setter: S): FieldsSetBy<S>[] {
  return fieldsWhere((row) => row.setBy.includes(setter)) as FieldsSetBy<S>[]
}

/** A field of a memory that a write's options set: every field `remember` may set but its text. */
export type WriteField = Exclude<FieldsSetBy<'remember'>, 'text'>

/**
 * The fields a write's options set, which are also the fields of an import line that describe
 * the memory and that a caller's `defaults` may set (`ImportOptions.lineFields` names those a
 * line may keep over the caller's choice).
 */
export const IMPORT_LINE_FIELDS: readonly WriteField[] = Object.freeze(
  fieldsSetBy('remember').filter((field): field is WriteField => field !== 'text'),
)

/** The fields a patch may change (`update`): every field `update` may set. */
export const PATCH_FIELDS: readonly FieldsSetBy<'update'>[] = Object.freeze(fieldsSetBy('update'))

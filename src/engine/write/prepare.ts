import {
  FIELDS,
  type FieldsSetBy,
  IMPORT_LINE_FIELDS,
  PATCH_FIELDS,
  type WriteField,
} from '../../core/contract/fields.ts'
import { RejectedMemoryError } from '../../core/errors.ts'
import type { LimitOptions } from '../../core/options.ts'
import { DEFAULT_NAMESPACE, DEFAULT_SOURCE, DEFAULT_TYPE } from '../../core/options.ts'
import { screenReadings, screenText } from '../../core/poison/index.ts'
import { dedupKey, normalizeText } from '../../core/text.ts'
import type {
  Memory,
  MemoryPatch,
  PoisonPolicy,
  RememberItem,
  RememberOptions,
  Tier,
  TrustLevel,
} from '../../core/types.ts'
import {
  expectArray,
  expectOptions,
  oneOf,
  validateHappened,
  validateId,
} from '../../core/validate.ts'
import { POISON_POLICIES } from '../../core/vocabulary.ts'

/**
 * Fields of a memory an import restores as they were exported (every field only an import sets
 * but its id and creation time, which it keeps apart); a fresh write sets them itself.
 */
export type RestoredFields = Partial<
  Pick<Memory, Exclude<FieldsSetBy<'import'>, FieldsSetBy<'remember'> | 'id' | 'createdAt'>>
>

/** A validated write, ready for dedup and storage. */
export interface PreparedWrite {
  text: string
  key: string
  namespace: string
  type: string
  tags: string[]
  aliases: string[]
  source: string
  trust: TrustLevel
  /** The writer's confidence as a number; absent: the source's (resolved with the lifecycle). */
  confidence?: number
  /** Absent: the type's default tier. */
  tier?: Tier
  summary?: string
  /** The id this write replaces: a `supersedes` edge is stored with it. */
  supersedes?: string
  flags: string[]
  expiresAt?: number
  happenedAt?: number
  happenedUntil?: number
  meta?: Record<string, unknown>
  /** Caller-supplied vector, checked against the model's dims later. */
  vector?: unknown
  /** Keep this id (imports), when no other memory has it. */
  id?: string
  createdAt?: number
  /** Imports: the rest of the row as exported, applied over the fresh row's values. */
  restored?: RestoredFields
}

/** Fields a write or a patch may give as `null`: none on a write, removed by a patch. */
const NULLABLE: ReadonlySet<string> = new Set([
  'summary',
  'expiresAt',
  'happenedAt',
  'happenedUntil',
])

/** Options of a write that are not fields of the memory it stores. */
const WRITE_ONLY_OPTIONS = ['supersedes', 'vector', 'poison'] as const

/** Option names `remember` accepts: the fields a write sets (`core/contract/fields.ts`), and the rest. */
export const REMEMBER_OPTION_NAMES: readonly string[] = [
  ...IMPORT_LINE_FIELDS,
  ...WRITE_ONLY_OPTIONS,
]
const ITEM_FIELD_NAMES: readonly string[] = ['text', ...REMEMBER_OPTION_NAMES]
const PATCH_FIELD_NAMES: readonly string[] = [...PATCH_FIELDS, 'poison']

// The compiler insists the derived lists name every option of the types, and nothing else.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const rememberNamed: Same<WriteField | (typeof WRITE_ONLY_OPTIONS)[number], keyof RememberOptions> =
  true
const patchNamed: Same<FieldsSetBy<'update'> | 'poison', keyof MemoryPatch> = true
void rememberNamed
void patchNamed

/**
 * Everything of a memory that recall hands back as words an LLM will read, as readings the
 * screen judges apart: the text as written and, when it differs in more than its ends, as
 * normalised (letters spaced out with runs of spaces are read both ways), each beside the
 * aliases, tags (a 64-character tag holds "ignore previous instructions" easily), the source
 * (often a URL or a name the writer was told), the type, the summary (recall may return it for
 * the text), the namespace (the formatter prints it in the fence's attributes) and every key and
 * string of `meta` (hosts render it, and tools hand it back). Apart, not joined: the same words
 * twice would count twice in the learned stage's sums (an indented code chunk read beside its
 * collapsed form was flagged).
 */
export function screenedText(memory: {
  text: string
  aliases: string[]
  tags: string[]
  source: string
  type: string
  summary?: string
  namespace?: string
  meta?: Record<string, unknown>
}): string[] {
  const { text, aliases, tags, source, type, summary, namespace, meta } = memory
  const rest = [...aliases, ...tags, source, type]
  if (summary) rest.push(summary)
  if (namespace !== undefined) rest.push(namespace)
  if (meta !== undefined) metaStrings(meta, rest)
  const normal = normalizeText(text)
  const readings = [text, ...(normal !== text.trim() ? [normal] : [])]
  return readings.map((reading) => [reading, ...rest].join('\n'))
}

/** The keys and string values of `meta`, depth first (it is plain JSON, checked already). */
function metaStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const item of value) metaStrings(item, out)
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key)
      metaStrings(item, out)
    }
  }
}

/**
 * Applies the poison policy: throws on reject, returns the rule codes to store on flag.
 * `where` names the write in the error (`items[3]`, `patch`).
 */
export function screen(
  text: string | readonly string[],
  policy: PoisonPolicy,
  where = '',
): string[] {
  if (policy === 'off') return []
  const findings = typeof text === 'string' ? screenText(text) : screenReadings(text)
  if (findings.length === 0) return []
  const rules = [...new Set(findings.map((f) => f.rule))]
  if (policy === 'reject') {
    const message = `text matched the memory-poisoning screen: ${rules.join(', ')}`
    throw new RejectedMemoryError(rules, where ? `${where}: ${message}` : message)
  }
  return rules
}

/**
 * Validates a write and everything it carries. Throws a typed error naming the field at fault
 * (`prefix` lets batch callers say which item: `items[3].tags[1]`; the options are then the item
 * itself, which may carry its `text`). Pure: nothing is written. The screen runs last, over the
 * checked fields, so a malformed write is reported as such.
 *
 * @throws InvalidInputError `BAD_OPTION` for an unknown option name, and what each field's
 *   check throws; RejectedMemoryError when the screen matches under `poison: 'reject'`.
 */
export function prepareWrite(
  text: unknown,
  options: RememberOptions | RememberItem | undefined,
  limits: LimitOptions,
  prefix = '',
): PreparedWrite {
  const o = prefix
    ? expectOptions(options, prefix.replace(/\.$/, ''), ITEM_FIELD_NAMES, prefix)
    : expectOptions(options, 'options', REMEMBER_OPTION_NAMES, '')
  return prepareFields(text, o as RememberOptions, limits, prefix)
}

/**
 * Validates a `rememberMany` batch whole: an array whose every slot holds an object
 * `{ text, ...options }` (a hole of `[a, , b]` is rejected, never skipped), each item prepared
 * as {@link prepareWrite} does, errors naming the item (`items[3].text`).
 *
 * @throws InvalidInputError `BAD_OPTION` at `items` or `items[i]`, and what an item's fields throw.
 */
export function prepareItems(items: unknown, limits: LimitOptions): PreparedWrite[] {
  const list = expectArray(items, 'items', 'an array of { text, ...options }')
  return list.map((item, i) => {
    const where = `items[${i}]`
    const { text, ...options } = expectOptions(item, where, ITEM_FIELD_NAMES, `${where}.`, true)
    return prepareFields(text, options as RememberOptions, limits, `${where}.`)
  })
}

function prepareFields(
  text: unknown,
  o: RememberOptions,
  limits: LimitOptions,
  prefix: string,
): PreparedWrite {
  const at = (name: string) => `${prefix}${name}`
  const clean = FIELDS.text.check(text, at('text'), limits) as string
  const poison = oneOf(o.poison ?? 'reject', POISON_POLICIES, at('poison'))
  const fields: Partial<Record<WriteField, unknown>> = {}
  for (const field of IMPORT_LINE_FIELDS) {
    const given = o[field]
    const fallback = WRITE_DEFAULTS[field]
    const value = given ?? (fallback ? fallback(fields) : given)
    // A write may say "no expiry" or "no date" with null; other fields given null are refused.
    if (value === undefined || (value === null && NULLABLE.has(field) && field !== 'summary')) {
      continue
    }
    fields[field] = FIELDS[field].check(value, at(field), limits)
  }
  validateHappened(
    fields.happenedAt as number | undefined,
    fields.happenedUntil as number | undefined,
    prefix,
  )
  // Each value is what its field's check returns: the stored shape of that field.
  const prepared = {
    ...fields,
    text: clean,
    key: dedupKey(clean),
    tags: fields.tags ?? [],
    aliases: fields.aliases ?? [],
    flags: [],
  } as unknown as PreparedWrite
  if (o.supersedes !== undefined) prepared.supersedes = validateId(o.supersedes, at('supersedes'))
  if (o.vector !== undefined) prepared.vector = o.vector
  prepared.flags = screen(screenedText(prepared), poison, prefix.replace(/\.$/, ''))
  return prepared
}

/**
 * What a write that names no value for a field gets (`null` counts as none for these); a field
 * not named here is left out, and the engine resolves it later (a tier from the type, a
 * confidence from the source). The trust follows the source, checked just before it.
 */
const WRITE_DEFAULTS: Partial<
  Record<WriteField, (fields: Partial<Record<WriteField, unknown>>) => unknown>
> = {
  namespace: () => DEFAULT_NAMESPACE,
  type: () => DEFAULT_TYPE,
  source: () => DEFAULT_SOURCE,
  trust: (fields) => defaultTrust(fields.source as string),
}

/** Sources that are the user's own side of the conversation: the user, and the agent taking notes. */
const FIRST_PARTY_SOURCES: ReadonlySet<string> = new Set(['user', DEFAULT_SOURCE])

/**
 * The trust a write gets when the host names none: text from anywhere but the user's side (a
 * page, a tool result, an import) is where indirect injection comes from, so it is untrusted.
 */
export function defaultTrust(source: string): TrustLevel {
  return FIRST_PARTY_SOURCES.has(source) ? 'unverified' : 'untrusted'
}

export type PreparedPatch = Omit<MemoryPatch, 'confidence'> & {
  confidence?: number
  key?: string
}

/**
 * Validates a patch; returns only the fields it changes, text already cleaned. A changed
 * `source` or `type` is screened here under `poison: 'reject'`; the update re-screens the whole
 * patched memory for the flags it stores.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, an unknown field) and what each field's
 *   check throws; RejectedMemoryError.
 */
export function preparePatch(patch: unknown, limits: LimitOptions): PreparedPatch {
  const p = expectOptions(patch, 'patch', PATCH_FIELD_NAMES, 'patch.', true) as MemoryPatch
  const out: Record<string, unknown> = {}
  const poison = oneOf(p.poison ?? 'reject', POISON_POLICIES, 'patch.poison')
  for (const field of PATCH_FIELDS) {
    const value = p[field]
    if (value === undefined) continue
    // null clears a summary, an expiry or a date; other fields given null are checked, and refused.
    const clears = value === null && NULLABLE.has(field)
    out[field] = clears ? null : FIELDS[field].check(value, `patch.${field}`, limits)
  }
  if (typeof out.text === 'string') out.key = dedupKey(out.text)
  if (poison === 'reject') {
    const named = [out.source, out.type].filter((s) => s !== undefined)
    if (named.length > 0) screen(named.join('\n'), poison, 'patch')
  }
  out.poison = poison
  return out as PreparedPatch
}

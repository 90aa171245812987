import { RejectedMemoryError } from '../../core/errors.ts'
import { confidenceValue } from '../../core/lifecycle.ts'
import type { LimitOptions } from '../../core/options.ts'
import { DEFAULT_NAMESPACE, DEFAULT_SOURCE, DEFAULT_TYPE } from '../../core/options.ts'
import { screenText } from '../../core/poison/index.ts'
import { dedupKey, normalizeText } from '../../core/text.ts'
import type {
  Confidence,
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
  numberIn,
  oneOf,
  validateAliases,
  validateId,
  validateName,
  validateTags,
  validateText,
  validateTime,
} from '../../core/validate.ts'
import { validateMeta } from '../../core/validate-meta.ts'
import { CONFIDENCE_LEVELS, POISON_POLICIES, TIERS, TRUST_LEVELS } from '../../core/vocabulary.ts'

// Kept while engine modules outside this one still import the printer from here.
export { describe } from '../../core/validate.ts'

/** Fields of a memory an import restores as they were exported; a fresh write sets them itself. */
export type RestoredFields = Partial<
  Pick<
    Memory,
    | 'updatedAt'
    | 'confirmedAt'
    | 'confirmations'
    | 'recallCount'
    | 'lastRecalledAt'
    | 'pageId'
    | 'chunk'
    | 'page'
    | 'needsReview'
  >
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
  meta?: Record<string, unknown>
  /** Caller-supplied vector, checked against the model's dims later. */
  vector?: unknown
  /** Keep this id (imports), when no other memory has it. */
  id?: string
  createdAt?: number
  /** Imports: the rest of the row as exported, applied over the fresh row's values. */
  restored?: RestoredFields
}

// Records, not lists, so the compiler insists every option of the type is named exactly once.
const REMEMBER_OPTIONS: Record<keyof RememberOptions, true> = {
  namespace: true,
  type: true,
  tags: true,
  aliases: true,
  source: true,
  trust: true,
  confidence: true,
  tier: true,
  summary: true,
  supersedes: true,
  expiresAt: true,
  meta: true,
  vector: true,
  poison: true,
}
const PATCH_FIELDS: Record<keyof MemoryPatch, true> = {
  text: true,
  type: true,
  tags: true,
  aliases: true,
  source: true,
  trust: true,
  confidence: true,
  tier: true,
  summary: true,
  expiresAt: true,
  meta: true,
  poison: true,
}

/** Option names `remember` accepts. */
export const REMEMBER_OPTION_NAMES: readonly string[] = Object.keys(REMEMBER_OPTIONS)
const ITEM_FIELD_NAMES: readonly string[] = ['text', ...REMEMBER_OPTION_NAMES]
const PATCH_FIELD_NAMES: readonly string[] = Object.keys(PATCH_FIELDS)

/**
 * Everything of a memory that recall hands back as words an LLM will read: the text (as written
 * and as normalised, so letters spaced out with runs of spaces are read both ways), aliases,
 * tags (a 64-character tag holds "ignore previous instructions" easily), the source (often a URL
 * or a name the writer was told), the type, the summary (recall may return it for the text), the
 * namespace (the formatter prints it in the fence's attributes) and every key and string of
 * `meta` (hosts render it, and tools hand it back).
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
}): string {
  const { text, aliases, tags, source, type, summary, namespace, meta } = memory
  const normal = normalizeText(text)
  const parts = [text, ...(normal !== text ? [normal] : []), ...aliases, ...tags, source, type]
  if (summary) parts.push(summary)
  if (namespace !== undefined) parts.push(namespace)
  if (meta !== undefined) metaStrings(meta, parts)
  return parts.join('\n')
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
export function screen(text: string, policy: PoisonPolicy, where = ''): string[] {
  if (policy === 'off') return []
  const findings = screenText(text)
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
  const clean = validateText(text, at('text'), limits.maxTextBytes)
  const poison = oneOf(o.poison ?? 'reject', POISON_POLICIES, at('poison'))
  const prepared: PreparedWrite = {
    text: clean,
    key: dedupKey(clean),
    namespace: validateName(o.namespace ?? DEFAULT_NAMESPACE, at('namespace')),
    type: validateName(o.type ?? DEFAULT_TYPE, at('type')),
    tags: validateTags(o.tags, at('tags'), limits.maxTags, limits.maxTagLength),
    aliases: validateAliases(o.aliases, at('aliases'), limits.maxAliases, limits.maxAliasLength),
    source: validateName(o.source ?? DEFAULT_SOURCE, at('source')),
    trust: 'unverified',
    flags: [],
  }
  prepared.trust = oneOf(o.trust ?? defaultTrust(prepared.source), TRUST_LEVELS, at('trust'))
  if (o.confidence !== undefined)
    prepared.confidence = checkConfidence(o.confidence, at('confidence'))
  if (o.tier !== undefined) prepared.tier = oneOf(o.tier, TIERS, at('tier'))
  if (o.summary !== undefined)
    prepared.summary = validateText(o.summary, at('summary'), MAX_SUMMARY_BYTES)
  if (o.supersedes !== undefined) prepared.supersedes = validateId(o.supersedes, at('supersedes'))
  if (o.expiresAt !== undefined && o.expiresAt !== null)
    prepared.expiresAt = validateTime(o.expiresAt, at('expiresAt'))
  if (o.meta !== undefined) prepared.meta = validateMeta(o.meta, at('meta'))
  if (o.vector !== undefined) prepared.vector = o.vector
  prepared.flags = screen(screenedText(prepared), poison, prefix.replace(/\.$/, ''))
  return prepared
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

/** Longest `summary`, in UTF-8 bytes: one line. */
const MAX_SUMMARY_BYTES = 512

/** A confidence given as a level word or a number 0..1, as the number stored. */
function checkConfidence(value: unknown, field: string): number {
  if (typeof value === 'number') return numberIn(value, field, 0, 1)
  return confidenceValue(oneOf(value, CONFIDENCE_LEVELS, field) as Confidence)
}

export type PreparedPatch = Omit<MemoryPatch, 'expiresAt' | 'confidence' | 'summary'> & {
  confidence?: number
  summary?: string | null
  key?: string
  expiresAt?: number | null
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
  const out: PreparedPatch = {}
  const poison = oneOf(p.poison ?? 'reject', POISON_POLICIES, 'patch.poison')
  if (p.text !== undefined) {
    out.text = validateText(p.text, 'patch.text', limits.maxTextBytes)
    out.key = dedupKey(out.text)
  }
  if (p.type !== undefined) out.type = validateName(p.type, 'patch.type')
  if (p.tags !== undefined)
    out.tags = validateTags(p.tags, 'patch.tags', limits.maxTags, limits.maxTagLength)
  if (p.aliases !== undefined) {
    out.aliases = validateAliases(
      p.aliases,
      'patch.aliases',
      limits.maxAliases,
      limits.maxAliasLength,
    )
  }
  if (p.source !== undefined) out.source = validateName(p.source, 'patch.source')
  if (p.trust !== undefined) out.trust = oneOf(p.trust, TRUST_LEVELS, 'patch.trust')
  if (p.confidence !== undefined) out.confidence = checkConfidence(p.confidence, 'patch.confidence')
  if (p.tier !== undefined) out.tier = oneOf(p.tier, TIERS, 'patch.tier')
  if (p.summary !== undefined)
    out.summary =
      p.summary === null ? null : validateText(p.summary, 'patch.summary', MAX_SUMMARY_BYTES)
  if (p.expiresAt !== undefined)
    out.expiresAt = p.expiresAt === null ? null : validateTime(p.expiresAt, 'patch.expiresAt')
  if (p.meta !== undefined) out.meta = validateMeta(p.meta, 'patch.meta')
  if (poison === 'reject') {
    const named = [out.source, out.type].filter((s) => s !== undefined)
    if (named.length > 0) screen(named.join('\n'), poison, 'patch')
  }
  out.poison = poison
  return out
}

import { InvalidInputError, RejectedMemoryError } from '../core/errors.ts'
import type { LimitOptions } from '../core/options.ts'
import { DEFAULT_NAMESPACE, DEFAULT_SOURCE, DEFAULT_TYPE } from '../core/options.ts'
import { screenText } from '../core/poison.ts'
import { dedupKey } from '../core/text.ts'
import type {
  Confidence,
  MemoryPatch,
  PoisonPolicy,
  RememberOptions,
  TrustLevel,
} from '../core/types.ts'
import { assertOneOf, validateAliases, validateTags, validateText } from '../core/validate.ts'

const TRUST: TrustLevel[] = ['trusted', 'unverified', 'untrusted']
const CONFIDENCE: Confidence[] = ['low', 'medium', 'high']
const POISON: PoisonPolicy[] = ['reject', 'flag', 'off']

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
  confidence: Confidence
  flags: string[]
  expiresAt?: number
  meta?: Record<string, unknown>
  /** Caller-supplied vector, checked against the model's dims later. */
  vector?: unknown
  /** Keep this id (imports), when no other memory has it. */
  id?: string
  createdAt?: number
}

function optionalString(value: unknown, field: string, fallback: string): string {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || value.trim() === '' || value.length > 256) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a non-empty string up to 256 characters, got ${describe(value)}`,
    )
  }
  return value.normalize('NFC').trim()
}

function optionalTime(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected epoch milliseconds, got ${describe(value)}`,
    )
  }
  return value
}

function optionalMeta(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a plain object, got ${describe(value)}`,
    )
  }
  return value as Record<string, unknown>
}

export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`
  return `${typeof value} ${String(value)}`
}

/**
 * Everything of a memory that recall hands back as words an LLM will read: the text, aliases
 * and tags (a 64-character tag holds "ignore previous instructions" easily). `meta` is the
 * host's structured data and is not screened.
 */
export function screenedText(memory: { text: string; aliases: string[]; tags: string[] }): string {
  return [memory.text, ...memory.aliases, ...memory.tags].join('\n')
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
 * (`prefix` lets batch callers say which item: `items[3].tags[1]`). Pure: nothing is written.
 */
export function prepareWrite(
  text: unknown,
  options: RememberOptions | undefined,
  limits: LimitOptions,
  prefix = '',
): PreparedWrite {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new InvalidInputError(
      'BAD_OPTION',
      `${prefix}options`,
      `expected an object, got ${describe(options)}`,
    )
  }
  const o = options ?? {}
  const clean = validateText(text, `${prefix}text`, limits.maxTextBytes)
  const poison = o.poison ?? 'reject'
  assertOneOf(poison, POISON, `${prefix}poison`)
  const trust = o.trust ?? 'unverified'
  assertOneOf(trust, TRUST, `${prefix}trust`)
  const confidence = o.confidence ?? 'medium'
  assertOneOf(confidence, CONFIDENCE, `${prefix}confidence`)
  const aliases =
    o.aliases === undefined
      ? []
      : validateAliases(o.aliases, `${prefix}aliases`, limits.maxAliases, limits.maxAliasLength)
  const tags =
    o.tags === undefined
      ? []
      : validateTags(o.tags, `${prefix}tags`, limits.maxTags, limits.maxTagLength)
  const prepared: PreparedWrite = {
    text: clean,
    key: dedupKey(clean),
    namespace: optionalString(o.namespace, `${prefix}namespace`, DEFAULT_NAMESPACE),
    type: optionalString(o.type, `${prefix}type`, DEFAULT_TYPE),
    tags,
    aliases,
    source: optionalString(o.source, `${prefix}source`, DEFAULT_SOURCE),
    trust,
    confidence,
    flags: [],
  }
  prepared.flags = screen(screenedText(prepared), poison, prefix.replace(/\.$/, ''))
  const expiresAt = optionalTime(o.expiresAt, `${prefix}expiresAt`)
  if (expiresAt !== undefined) prepared.expiresAt = expiresAt
  const meta = optionalMeta(o.meta, `${prefix}meta`)
  if (meta !== undefined) prepared.meta = meta
  if (o.vector !== undefined) prepared.vector = o.vector
  return prepared
}

export type PreparedPatch = Omit<MemoryPatch, 'expiresAt'> & {
  key?: string
  expiresAt?: number | null
}

/** Validates a patch; returns only the fields it changes, text already cleaned. */
export function preparePatch(patch: unknown, limits: LimitOptions): PreparedPatch {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) {
    throw new InvalidInputError('BAD_OPTION', 'patch', `expected an object, got ${describe(patch)}`)
  }
  const p = patch as MemoryPatch
  const out: PreparedPatch = {}
  const poison = p.poison ?? 'reject'
  assertOneOf(poison, POISON, 'patch.poison')
  if (p.text !== undefined) {
    out.text = validateText(p.text, 'patch.text', limits.maxTextBytes)
    out.key = dedupKey(out.text)
  }
  if (p.type !== undefined) out.type = optionalString(p.type, 'patch.type', DEFAULT_TYPE)
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
  if (p.source !== undefined) out.source = optionalString(p.source, 'patch.source', DEFAULT_SOURCE)
  if (p.trust !== undefined) {
    assertOneOf(p.trust, TRUST, 'patch.trust')
    out.trust = p.trust
  }
  if (p.confidence !== undefined) {
    assertOneOf(p.confidence, CONFIDENCE, 'patch.confidence')
    out.confidence = p.confidence
  }
  if (p.expiresAt !== undefined)
    out.expiresAt = p.expiresAt === null ? null : optionalTime(p.expiresAt, 'patch.expiresAt')!
  const meta = optionalMeta(p.meta, 'patch.meta')
  if (meta !== undefined) out.meta = meta
  out.poison = poison
  return out
}

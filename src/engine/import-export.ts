import { EngramError, ImportFormatError, RejectedMemoryError } from '../core/errors.ts'
import type { LimitOptions } from '../core/options.ts'
import type {
  ExportOptions,
  ImportLineField,
  ImportOptions,
  Memory,
  Relation,
  RememberOptions,
  TrustLevel,
} from '../core/types.ts'
import {
  booleanOr,
  checkCharacters,
  expectArray,
  expectOptions,
  integerIn,
  oneOf,
  validateId,
  validateName,
  validateTime,
} from '../core/validate.ts'
import { validateMeta } from '../core/validate-meta.ts'
import { IMPORT_LINE_FIELDS, POISON_POLICIES, TRUST_LEVELS, trustRank } from '../core/vocabulary.ts'
import type { EngramDatabase, VectorRow } from '../storage/index.ts'
import {
  type PreparedWrite,
  prepareWrite,
  REMEMBER_OPTION_NAMES,
  type RestoredFields,
} from './prepare.ts'
import { checkEdge, edgesOf } from './relations.ts'

/** Bump when the line format changes incompatibly. */
export const EXPORT_FORMAT_VERSION = 1

/** First line of an export. */
export interface ExportHeader {
  format: 'engram'
  version: number
  model: string | null
  dims: number
  exportedAt: string
  /** Memory lines that follow. */
  count: number
  /** Relation lines (`{"relation": {from, to, kind, createdAt}}`) after the memory lines. */
  relations?: number
  /** Ids whose `meta` (from an older version) JSON could not carry whole: exported with what it could. */
  repaired?: string[]
  /** Ids of rows that could not be written at all, so are not in the file. */
  skipped?: string[]
}

/** One exported memory: every field but the derived `key`; `vector` is base64 of the float32 bytes, when asked for. */
type ExportLine = Omit<Memory, 'key'> & { vector?: string }

function toBase64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength)
  let binary = ''
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return btoa(binary)
}

function fromBase64(text: string): Float32Array {
  const binary = atob(text)
  if (binary.length % 4 !== 0) throw new Error('vector bytes are not a whole number of float32s')
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return new Float32Array(bytes.buffer)
}

const EXPORT_OPTIONS: Record<keyof ExportOptions, true> = { namespace: true, vectors: true }

/**
 * Checks `exportMemories` options.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, an unknown name, `vectors` not a
 *   boolean) and what a namespace's check throws.
 */
export function checkExportOptions(options: unknown): { namespace?: string; vectors: boolean } {
  const o = expectOptions(options, 'options', Object.keys(EXPORT_OPTIONS), '')
  const checked: { namespace?: string; vectors: boolean } = {
    vectors: booleanOr(o.vectors, false, 'vectors'),
  }
  if (o.namespace !== undefined) checked.namespace = validateName(o.namespace, 'namespace')
  return checked
}

/**
 * Writes the export: a header, then one line per memory. One row never blocks the rest: a row
 * whose `meta` JSON cannot carry (a cycle or a BigInt stored by an older version) is written with
 * what can be carried and named in `repaired`; a row that cannot be written at all is left out
 * and named in `skipped`.
 */
export async function exportJsonl(
  db: EngramDatabase,
  options: ExportOptions & { model: string | null; dims: number; now: number },
): Promise<string> {
  const { model, dims, now, ...given } = options
  const { namespace, vectors } = checkExportOptions(given)
  const rows = await (namespace === undefined
    ? db.memories.orderBy('id').toArray()
    : db.memories.where('namespace').equals(namespace).sortBy('id'))
  const vectorRows = vectors ? await db.vectors.bulkGet(rows.map((r) => r.id)) : []
  const lines: string[] = []
  const repaired: string[] = []
  const skipped: string[] = []
  rows.forEach((row, i) => {
    const written = exportLine(row, vectorRows[i], model)
    if (written === undefined) skipped.push(String(row.id))
    else {
      lines.push(written.line)
      if (written.repaired) repaired.push(row.id)
    }
  })
  const header: ExportHeader = {
    format: 'engram',
    version: EXPORT_FORMAT_VERSION,
    model,
    dims,
    exportedAt: new Date(now).toISOString(),
    count: lines.length,
  }
  if (repaired.length > 0) header.repaired = repaired
  if (skipped.length > 0) header.skipped = skipped
  // Only edges whose both ends are in this file: an import has nothing to hang the others on.
  const exported = new Set(rows.map((r) => r.id))
  const edges = (await edgesOf(db, [...exported])).filter(
    (e) => exported.has(e.from) && exported.has(e.to),
  )
  if (edges.length > 0) header.relations = edges.length
  const relationLines = edges.map(({ from, to, kind, createdAt }) =>
    JSON.stringify({ relation: { from, to, kind, createdAt } }),
  )
  return `${[JSON.stringify(header), ...lines, ...relationLines].join('\n')}\n`
}

/** One row as a line, its `meta` reduced to what an import accepts; undefined when impossible. */
function exportLine(
  row: Memory,
  vector: VectorRow | undefined,
  model: string | null,
): { line: string; repaired: boolean } | undefined {
  try {
    const { key: _key, ...rest } = row
    const line: ExportLine = rest
    let repaired = false
    if (row.meta !== undefined) {
      const meta = importableMeta(row.meta)
      repaired = meta.repaired
      if (meta.value === undefined) delete line.meta
      else line.meta = meta.value
    }
    if (vector && vector.model === model) line.vector = toBase64(vector.vector)
    return { line: JSON.stringify(line), repaired }
  } catch {
    return undefined
  }
}

/**
 * `meta` as an import will accept it: unchanged when it is valid; otherwise its JSON-safe part
 * (cycles, functions, symbols, undefined and strings with forbidden characters left out, BigInts
 * as strings, Dates as ISO strings, Maps as objects, Sets as arrays, non-finite numbers as null),
 * or nothing when even that is too large.
 */
function importableMeta(meta: unknown): { value?: Record<string, unknown>; repaired: boolean } {
  try {
    return { value: validateMeta(meta), repaired: false }
  } catch {
    try {
      const plain = toPlainData(meta, new Set(), 0)
      return { value: validateMeta(plain ?? {}), repaired: true }
    } catch {
      return { repaired: true }
    }
  }
}

const DROP = Symbol('drop')

function toPlainData(value: unknown, ancestors: Set<object>, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      try {
        return checkCharacters(value, 'meta')
      } catch {
        return DROP
      }
    case 'number':
      return Number.isFinite(value) ? value : null
    case 'boolean':
      return value
    case 'bigint':
      return String(value)
    case 'object':
      break
    default:
      return DROP
  }
  if (value === null) return null
  if (ancestors.has(value) || depth > 8) return DROP
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  ancestors.add(value)
  let out: unknown
  if (Array.isArray(value) || value instanceof Set) {
    out = [...value]
      .map((v) => toPlainData(v, ancestors, depth + 1))
      .map((v) => (v === DROP ? null : v))
  } else {
    const entries = value instanceof Map ? [...value] : Object.entries(value)
    const obj: Record<string, unknown> = {}
    for (const [key, v] of entries) {
      const plain = toPlainData(v, ancestors, depth + 1)
      if (plain !== DROP) obj[String(key)] = plain
    }
    out = obj
  }
  ancestors.delete(value)
  return out
}

/** Largest `batchSize` an import accepts. */
const MAX_IMPORT_BATCH = 10_000

/** The most trust an imported line may claim when the caller does not say. */
const DEFAULT_IMPORT_TRUST: TrustLevel = 'unverified'

/** The less trusted of `claim` and `max`. An unknown level is left for prepareWrite to reject. */
function capTrust(claim: unknown, max: TrustLevel): unknown {
  return TRUST_LEVELS.includes(claim as TrustLevel) &&
    trustRank(claim as TrustLevel) < trustRank(max)
    ? max
    : claim
}

const IMPORT_OPTIONS: Record<keyof ImportOptions, true> = {
  defaults: true,
  lineFields: true,
  batchSize: true,
  trust: true,
}
/** What `defaults` may set: any `remember` option but a vector, which belongs to one text. */
// A `supersedes` names one stored memory: no meaning for every line of a file.
const DEFAULT_NAMES = REMEMBER_OPTION_NAMES.filter((n) => n !== 'vector' && n !== 'supersedes')

/**
 * Checks `importMemories` options; returns the batch size to use. The fields of `defaults` are
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
interface LinePolicy {
  defaults: RememberOptions
  lineFields: ReadonlySet<ImportLineField>
  maxTrust: TrustLevel
  limits: LimitOptions
  /** Instants later than this are brought back to it. */
  now: number
  vectorsUsable: boolean
}

/**
 * Parses and validates a whole JSONL import before anything is written, so a bad line costs
 * nothing. Accepts Engram exports and plain `{"text": ...}` lines, a leading UTF-8 BOM and LF,
 * CRLF or CR line endings; vectors are kept only when the header names `model`. The caller's
 * `defaults` win over what a line claims, except for the fields in `options.lineFields`; a
 * line's own `trust` is capped at `options.trust` (default `'unverified'`).
 *
 * @throws ImportFormatError naming the line; InvalidInputError for bad `defaults` (checked once,
 *   before the first line); RejectedMemoryError naming the line under `poison: 'reject'`.
 * @example
 * parseJsonl('{"text":"Ship it","trust":"trusted"}', undefined, limits, null)[0].trust
 * // => 'unverified'
 */
export function parseJsonl(
  jsonl: string,
  options: Pick<ImportOptions, 'defaults' | 'trust' | 'lineFields'> | undefined,
  limits: LimitOptions,
  model: string | null,
  now: number = Date.now(),
): PreparedWrite[] {
  return parseImport(jsonl, options, limits, model, now).items
}

/** What an import file holds: its memories, and the relations between them (by exported id). */
export interface ParsedImport {
  items: PreparedWrite[]
  relations: Relation[]
}

/**
 * {@link parseJsonl}, with the relation lines an export ends with, each checked as `relate`
 * checks an edge (`ImportFormatError` naming the line otherwise).
 */
export function parseImport(
  jsonl: string,
  options: Pick<ImportOptions, 'defaults' | 'trust' | 'lineFields'> | undefined,
  limits: LimitOptions,
  model: string | null,
  now: number = Date.now(),
): ParsedImport {
  if (typeof jsonl !== 'string') throw new ImportFormatError(0, 'expected JSONL text')
  const defaults = options?.defaults ?? {}
  if (Object.keys(defaults).length > 0) checkDefaults(defaults, limits)
  const policy: LinePolicy = {
    defaults,
    lineFields: new Set(options?.lineFields ?? []),
    maxTrust: options?.trust ?? DEFAULT_IMPORT_TRUST,
    limits,
    now,
    vectorsUsable: false,
  }
  const items: PreparedWrite[] = []
  const relations: Relation[] = []
  const body = jsonl.charCodeAt(0) === 0xfeff ? jsonl.slice(1) : jsonl
  // A raw CR can only end a line: inside a JSON string it must be written \r.
  body.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const lineNo = i + 1
    if (raw.trim() === '') return
    const record = parseLine(raw, lineNo)
    if (record.format === 'engram') {
      if (items.length > 0) throw new ImportFormatError(lineNo, 'a header must come first')
      if (record.version !== EXPORT_FORMAT_VERSION) {
        throw new ImportFormatError(lineNo, `unsupported export version ${String(record.version)}`)
      }
      policy.vectorsUsable = model !== null && record.model === model
      return
    }
    if (record.relation !== undefined) {
      relations.push(toRelation(record.relation, lineNo, now))
      return
    }
    items.push(toPrepared(record, lineNo, policy))
  })
  return { items, relations }
}

function toRelation(value: unknown, lineNo: number, now: number): Relation {
  const r = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>
  try {
    const edge = checkEdge(r.from, r.to, r.kind)
    const at = typeof r.createdAt === 'number' && Number.isFinite(r.createdAt) ? r.createdAt : now
    return { ...edge, createdAt: Math.min(at, now) }
  } catch (error) {
    throw new ImportFormatError(lineNo, `bad relation: ${(error as Error).message}`)
  }
}

/** The caller's `defaults`, checked once as a write of their own would be. */
function checkDefaults(defaults: RememberOptions, limits: LimitOptions): void {
  expectOptions(defaults, 'defaults', DEFAULT_NAMES, 'defaults.')
  if (defaults.poison !== undefined) oneOf(defaults.poison, POISON_POLICIES, 'defaults.poison')
  // The screen is the lines' business: a default is checked for shape and characters only.
  prepareWrite('defaults', { ...defaults, poison: 'off' }, limits, 'defaults.')
}

function parseLine(raw: string, lineNo: number): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw new ImportFormatError(lineNo, 'not valid JSON')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ImportFormatError(lineNo, 'expected a JSON object')
  }
  return value as Record<string, unknown>
}

function toPrepared(
  record: Record<string, unknown>,
  lineNo: number,
  policy: LinePolicy,
): PreparedWrite {
  try {
    const prepared = prepareWrite(record.text, lineOptions(record, policy), policy.limits)
    const { id, createdAt, vector } = record
    if (typeof id === 'string' && /^[0-9A-Za-z_-]{1,64}$/.test(id)) prepared.id = id
    if (createdAt !== undefined) prepared.createdAt = pastTime(createdAt, 'createdAt', policy.now)
    const restored = restoredFields(record, policy.now)
    if (Object.keys(restored).length > 0) prepared.restored = restored
    if (policy.vectorsUsable && typeof vector === 'string') prepared.vector = fromBase64(vector)
    return prepared
  } catch (error) {
    // A poison match is the caller's policy at work, not a malformed line: keep its type.
    if (error instanceof RejectedMemoryError) {
      throw new RejectedMemoryError(
        error.rules,
        `line ${lineNo}: text matched the memory-poisoning screen: ${error.rules.join(', ')}`,
      )
    }
    const message =
      error instanceof EngramError || error instanceof Error ? error.message : String(error)
    throw new ImportFormatError(lineNo, message)
  }
}

/**
 * The options a line is written with: per field, the caller's default when it set one (unless
 * `lineFields` lets the line choose), else the line's own value. A line's own trust is capped;
 * the caller's is its word. The poison policy is the caller's only, never the file's: a hostile
 * line must not be able to switch the screen off for itself.
 */
function lineOptions(record: Record<string, unknown>, policy: LinePolicy): RememberOptions {
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

/** The rest of an exported row, checked; absent fields are left to the fresh row's values. */
function restoredFields(record: Record<string, unknown>, now: number): RestoredFields {
  const out: RestoredFields = {}
  const { updatedAt, confirmedAt, confirmations, recallCount, lastRecalledAt, pageId, chunk } =
    record
  if (record.needsReview === true) out.needsReview = true
  if (updatedAt !== undefined) out.updatedAt = pastTime(updatedAt, 'updatedAt', now)
  if (confirmedAt !== undefined) out.confirmedAt = pastTime(confirmedAt, 'confirmedAt', now)
  if (lastRecalledAt !== undefined)
    out.lastRecalledAt = pastTime(lastRecalledAt, 'lastRecalledAt', now)
  if (confirmations !== undefined)
    out.confirmations = integerIn(confirmations, 'confirmations', 1, Number.MAX_SAFE_INTEGER)
  if (recallCount !== undefined)
    out.recallCount = integerIn(recallCount, 'recallCount', 0, Number.MAX_SAFE_INTEGER)
  if (pageId !== undefined) out.pageId = validateId(pageId, 'pageId')
  if (chunk !== undefined) out.chunk = integerIn(chunk, 'chunk', 0, Number.MAX_SAFE_INTEGER)
  return out
}

/** A line's instant, no later than now: a file must not date itself into the recency boost forever. */
function pastTime(value: unknown, field: string, now: number): number {
  return Math.min(validateTime(value, field), now)
}

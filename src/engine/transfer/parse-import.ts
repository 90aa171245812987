import {
  EngramError,
  ImportFormatError,
  InvalidInputError,
  RejectedMemoryError,
} from '../../core/errors.ts'
import type { LimitOptions } from '../../core/options.ts'
import type { ImportOptions, PoisonPolicy, Relation } from '../../core/types.ts'
import { integerIn, validateTime } from '../../core/validate.ts'
import { vectorFromBase64 } from '../../core/vector/base64.ts'
import { checkEdge } from '../relations.ts'
import { type PreparedWrite, prepareWrite, type RestoredFields } from '../write/prepare.ts'
import {
  asChunk,
  CHUNK_OPTIONS,
  gatherPages,
  type ImportedChunk,
  type ImportedPage,
  isChunkLine,
} from './chunk-lines.ts'
import { EXPORT_FORMAT_VERSION } from './export.ts'
import { type LinePolicy, lineOptions, linePolicy } from './import-options.ts'

type LineOptions = Pick<ImportOptions, 'defaults' | 'trust' | 'lineFields'> | undefined

/**
 * Parses and validates a whole JSONL import before anything is written, so a bad line costs
 * nothing; returns the memories that are not page chunks (see {@link parseImport} for those).
 * Accepts Engram exports and plain `{"text": ...}` lines, a leading UTF-8 BOM and LF, CRLF or
 * CR line endings; vectors are kept only when the header names `model`. The caller's
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
  options: LineOptions,
  limits: LimitOptions,
  model: string | null,
  now: number = Date.now(),
): PreparedWrite[] {
  return parseImport(jsonl, options, limits, model, now).items
}

/** What an import file holds: its memories, its pages, and the relations (by exported id). */
export interface ParsedImport {
  /** Lines that are not page chunks, in file order. */
  items: PreparedWrite[]
  /** Chunk lines (those with `page`, `pageId` and `chunk`), checked and grouped by page. */
  pages: ImportedPage[]
  relations: Relation[]
}

/**
 * {@link parseJsonl}, with the page chunks and the relation lines an export ends with. A chunk
 * line is checked alone (its `page` object, `pageId`, `chunk`, the text verbatim) and then with
 * its page's other chunks (`gatherPages`); a relation is checked as `relations.add` checks an edge.
 *
 * @throws ImportFormatError naming the line.
 */
export function parseImport(
  jsonl: string,
  options: LineOptions,
  limits: LimitOptions,
  model: string | null,
  now: number = Date.now(),
): ParsedImport {
  if (typeof jsonl !== 'string') throw new ImportFormatError(0, 'expected JSONL text')
  const policy = linePolicy(options, limits, now)
  const items: PreparedWrite[] = []
  const chunks: ImportedChunk[] = []
  const relations: Relation[] = []
  let seen = 0
  const body = jsonl.charCodeAt(0) === 0xfeff ? jsonl.slice(1) : jsonl
  // A raw CR can only end a line: inside a JSON string it must be written \r.
  body.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const lineNo = i + 1
    if (raw.trim() === '') return
    const record = parseLine(raw, lineNo)
    if (record.format === 'engram') {
      if (seen > 0) throw new ImportFormatError(lineNo, 'a header must come first')
      if (record.version !== EXPORT_FORMAT_VERSION) {
        throw new ImportFormatError(lineNo, `unsupported export version ${String(record.version)}`)
      }
      policy.vectorsUsable = model !== null && record.model === model
      return
    }
    seen++
    if (record.relation !== undefined) relations.push(toRelation(record.relation, lineNo, now))
    else if (isChunkLine(record)) chunks.push(toChunk(record, lineNo, policy))
    else items.push(lineWrite(record, lineNo, policy, () => lineOptions(record, policy)))
  })
  return { items, pages: gatherPages(chunks), relations }
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

function toChunk(record: Record<string, unknown>, lineNo: number, policy: LinePolicy) {
  let poison: PoisonPolicy = 'flag'
  const write = lineWrite(record, lineNo, policy, () => {
    const options = { ...lineOptions(record, policy), ...CHUNK_OPTIONS }
    poison = options.poison ?? poison
    return options
  })
  return { line: lineNo, write: atLine(lineNo, () => asChunk(write, record, poison)) }
}

/** A line's write: its options as `options()` resolves them, its kept id, instants and vector. */
function lineWrite(
  record: Record<string, unknown>,
  lineNo: number,
  policy: LinePolicy,
  options: () => ReturnType<typeof lineOptions>,
): PreparedWrite {
  return atLine(lineNo, () => {
    const prepared = prepareWrite(record.text, options(), policy.limits)
    const { id, createdAt, vector } = record
    if (typeof id === 'string' && /^[0-9A-Za-z_-]{1,64}$/.test(id)) prepared.id = id
    if (createdAt !== undefined) prepared.createdAt = pastTime(createdAt, 'createdAt', policy.now)
    const restored = restoredFields(record, policy.now)
    if (Object.keys(restored).length > 0) prepared.restored = restored
    if (policy.vectorsUsable && typeof vector === 'string')
      prepared.vector = vectorFromBase64(vector)
    return prepared
  })
}

/** Runs one line's checks; what they throw is reported as that line's fault. */
function atLine<T>(lineNo: number, check: () => T): T {
  try {
    return check()
  } catch (error) {
    // A poison match is the caller's policy at work, not a malformed line: keep its type.
    if (error instanceof RejectedMemoryError) {
      throw new RejectedMemoryError(
        error.rules,
        `line ${lineNo}: text matched the memory-poisoning screen: ${error.rules.join(', ')}`,
      )
    }
    if (error instanceof InvalidInputError) {
      throw new ImportFormatError(lineNo, error.message, { fault: error.code, field: error.field })
    }
    const message =
      error instanceof EngramError || error instanceof Error ? error.message : String(error)
    throw new ImportFormatError(lineNo, message)
  }
}

/**
 * The rest of an exported row, checked; absent fields are left to the fresh row's values. A
 * chunk's place in its page (`pageId`, `chunk`, `page`) is `asChunk`'s to check.
 */
function restoredFields(record: Record<string, unknown>, now: number): RestoredFields {
  const out: RestoredFields = {}
  const { updatedAt, confirmedAt, confirmations, recallCount, lastRecalledAt } = record
  if (record.needsReview === true) out.needsReview = true
  if (updatedAt !== undefined) out.updatedAt = pastTime(updatedAt, 'updatedAt', now)
  if (confirmedAt !== undefined) out.confirmedAt = pastTime(confirmedAt, 'confirmedAt', now)
  if (lastRecalledAt !== undefined)
    out.lastRecalledAt = pastTime(lastRecalledAt, 'lastRecalledAt', now)
  if (confirmations !== undefined)
    out.confirmations = integerIn(confirmations, 'confirmations', 1, Number.MAX_SAFE_INTEGER)
  if (recallCount !== undefined)
    out.recallCount = integerIn(recallCount, 'recallCount', 0, Number.MAX_SAFE_INTEGER)
  return out
}

/** A line's instant, no later than now: a file must not date itself into the recency boost forever. */
function pastTime(value: unknown, field: string, now: number): number {
  return Math.min(validateTime(value, field), now)
}

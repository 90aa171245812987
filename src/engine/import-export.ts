import {
  EngramError,
  ImportFormatError,
  InvalidInputError,
  RejectedMemoryError,
} from '../core/errors.ts'
import type { LimitOptions } from '../core/options.ts'
import type {
  ExportOptions,
  ImportOptions,
  Memory,
  RememberOptions,
  TrustLevel,
} from '../core/types.ts'
import type { EngramDatabase } from '../storage/index.ts'
import { describe, type PreparedWrite, prepareWrite } from './prepare.ts'

/** Bump when the line format changes incompatibly. */
export const EXPORT_FORMAT_VERSION = 1

/** First line of an export. */
export interface ExportHeader {
  format: 'engram'
  version: number
  model: string | null
  dims: number
  exportedAt: string
  count: number
}

/** One exported memory; `vector` is base64 of the float32 bytes, when asked for. */
type ExportLine = Omit<Memory, 'key' | 'recallCount' | 'lastRecalledAt' | 'updatedAt'> & {
  vector?: string
}

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

export async function exportJsonl(
  db: EngramDatabase,
  options: ExportOptions & { model: string | null; dims: number; now: number },
): Promise<string> {
  const rows = await (options.namespace === undefined
    ? db.memories.orderBy('id').toArray()
    : db.memories.where('namespace').equals(options.namespace).sortBy('id'))
  const vectors = options.vectors ? await db.vectors.bulkGet(rows.map((r) => r.id)) : []
  const header: ExportHeader = {
    format: 'engram',
    version: EXPORT_FORMAT_VERSION,
    model: options.model,
    dims: options.dims,
    exportedAt: new Date(options.now).toISOString(),
    count: rows.length,
  }
  const lines = [JSON.stringify(header)]
  rows.forEach((row, i) => {
    const { key: _key, recallCount: _r, lastRecalledAt: _l, updatedAt: _u, ...rest } = row
    const line: ExportLine = rest
    const v = vectors[i]
    if (v && v.model === options.model) line.vector = toBase64(v.vector)
    lines.push(JSON.stringify(line))
  })
  return `${lines.join('\n')}\n`
}

/** Largest `batchSize` an import accepts. */
const MAX_IMPORT_BATCH = 10_000

/** Trust levels, most trusted first: a lower rank claims more. */
const TRUST_RANK: Record<TrustLevel, number> = { trusted: 0, unverified: 1, untrusted: 2 }

/** The most trust an imported line may claim when the caller does not say. */
const DEFAULT_IMPORT_TRUST: TrustLevel = 'unverified'

const isTrustLevel = (value: unknown): value is TrustLevel =>
  typeof value === 'string' && Object.hasOwn(TRUST_RANK, value)

/** The less trusted of `claim` and `max`. An unknown level is left for prepareWrite to reject. */
function capTrust(claim: TrustLevel, max: TrustLevel): TrustLevel {
  return isTrustLevel(claim) && TRUST_RANK[claim] < TRUST_RANK[max] ? max : claim
}

/**
 * Checks `importMemories` options; returns the batch size to use.
 *
 * @throws InvalidInputError `BAD_OPTION`: not an object, `batchSize` not an integer 1..10000
 *   (0 would never advance), `defaults` not an object, `trust` not a trust level.
 */
export function checkImportOptions(options: unknown, fallback: number): number {
  if (options === undefined) return fallback
  if (!options || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'options',
      `expected an object, got ${describe(options)}`,
    )
  }
  const { batchSize, defaults, trust } = options as ImportOptions
  if (
    batchSize !== undefined &&
    (typeof batchSize !== 'number' ||
      !Number.isInteger(batchSize) ||
      batchSize < 1 ||
      batchSize > MAX_IMPORT_BATCH)
  ) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'batchSize',
      `expected an integer from 1 to ${MAX_IMPORT_BATCH}, got ${describe(batchSize)}`,
    )
  }
  if (defaults !== undefined && (!defaults || typeof defaults !== 'object')) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'defaults',
      `expected an object, got ${describe(defaults)}`,
    )
  }
  if (trust !== undefined && !isTrustLevel(trust)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'trust',
      `expected one of ${Object.keys(TRUST_RANK).join(', ')}, got ${describe(trust)}`,
    )
  }
  return batchSize ?? fallback
}

/**
 * Parses and validates a whole JSONL import before anything is written, so a bad line costs
 * nothing. Accepts Engram exports and plain `{"text": ...}` lines; vectors are kept only when
 * the header names `model`. A line's own `trust` is capped at `options.trust` (default
 * `'unverified'`); `options.defaults` fill in what a line leaves out.
 *
 * @example
 * parseJsonl('{"text":"Ship it","trust":"trusted"}', undefined, limits, null)[0].trust
 * // => 'unverified'
 */
export function parseJsonl(
  jsonl: string,
  options: Pick<ImportOptions, 'defaults' | 'trust'> | undefined,
  limits: LimitOptions,
  model: string | null,
): PreparedWrite[] {
  if (typeof jsonl !== 'string') throw new ImportFormatError(0, 'expected JSONL text')
  const defaults = options?.defaults
  const maxTrust = options?.trust ?? DEFAULT_IMPORT_TRUST
  const items: PreparedWrite[] = []
  let vectorsUsable = false
  const lines = jsonl.split(/\r?\n/)
  lines.forEach((raw, i) => {
    const lineNo = i + 1
    if (raw.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      throw new ImportFormatError(lineNo, 'not valid JSON')
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw new ImportFormatError(lineNo, 'expected a JSON object')
    }
    const record = value as Record<string, unknown>
    if (record.format === 'engram') {
      if (items.length > 0) throw new ImportFormatError(lineNo, 'a header must come first')
      if (record.version !== EXPORT_FORMAT_VERSION) {
        throw new ImportFormatError(lineNo, `unsupported export version ${String(record.version)}`)
      }
      vectorsUsable = model !== null && record.model === model
      return
    }
    items.push(toPrepared(record, lineNo, defaults, maxTrust, limits, vectorsUsable))
  })
  return items
}

function toPrepared(
  record: Record<string, unknown>,
  lineNo: number,
  defaults: RememberOptions | undefined,
  maxTrust: TrustLevel,
  limits: LimitOptions,
  vectorsUsable: boolean,
): PreparedWrite {
  try {
    const { text, id, createdAt, vector, ...fields } = record
    // The poison policy is the caller's (`defaults.poison`), never the file's: a hostile line
    // must not be able to switch the screen off for itself.
    const claimed = pick(fields)
    // Likewise trust: a line vouching for itself would let any file plant 'trusted' memories.
    // `defaults.trust` is the caller's word and stands; the built-in default is capped too.
    if (claimed.trust !== undefined) claimed.trust = capTrust(claimed.trust, maxTrust)
    else if (defaults?.trust === undefined) claimed.trust = capTrust('unverified', maxTrust)
    const options = {
      source: 'import',
      ...defaults,
      ...claimed,
      poison: defaults?.poison ?? ('flag' as const),
    }
    const prepared = prepareWrite(text, options, limits)
    if (typeof id === 'string' && /^[0-9A-Za-z_-]{1,64}$/.test(id)) prepared.id = id
    if (typeof createdAt === 'number' && Number.isFinite(createdAt)) prepared.createdAt = createdAt
    if (vectorsUsable && typeof vector === 'string') prepared.vector = fromBase64(vector)
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

/** The fields an import line may set; everything else in the line (`poison`, `flags`) is ignored. */
function pick(fields: Record<string, unknown>): RememberOptions {
  const out: Record<string, unknown> = {}
  for (const name of [
    'namespace',
    'type',
    'tags',
    'aliases',
    'source',
    'trust',
    'confidence',
    'expiresAt',
    'meta',
  ]) {
    if (fields[name] !== undefined) out[name] = fields[name]
  }
  return out as RememberOptions
}

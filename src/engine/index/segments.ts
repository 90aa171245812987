import type { Memory } from '../../core/types.ts'
import type { VectorIndexSnapshot } from '../../core/vector/index.ts'
import type { Catalogue } from './catalogue.ts'
import { ALWAYS } from './catalogue-fields.ts'

/**
 * Memories per catalogue segment: small enough that a write touching a few memories rewrites a
 * few hundred kB, not the whole catalogue (a segment changes when one of its rows does).
 */
export const CATALOGUE_SEGMENT_ROWS = 2000
/**
 * Bytes per vector segment at most: far under Chromium's 133 MB cap on one IndexedDB value, so
 * the cap limits segments, not the store (issue 25).
 */
export const VECTOR_SEGMENT_BYTES = 8 * 1024 * 1024

/**
 * One catalogue segment: the JSON of its rows (one string clones and parses far faster), each a
 * {@link RowTuple} when it has every field the write path sets, else the row's object as it is.
 */
export interface CatalogueSegment {
  rows: string
  /** {@link hashText} of `rows`: the head lists it, so a segment from another save is refused. */
  hash: string
}

/** The settings of a vector snapshot, without its rows (they are in the segments). */
export type VectorHead = Omit<
  VectorIndexSnapshot,
  'ids' | 'codes' | 'scales' | 'signs' | 'groups' | 'vectors'
> & { rows: number }

/** One vector segment: rows `from` .. `from + ids.length` of the snapshot's arrays. */
export interface VectorSegment {
  ids: string[]
  codes: Int8Array
  scales: Float32Array
  signs: Uint32Array
  groups: Uint16Array
  vectors?: Float32Array
  hash: string
}

/**
 * A row as a segment stores it: the id, the values of the fields `toMemory` always sets in
 * {@link ALWAYS} order, then an object of the row's other fields when it has any. Without the
 * field names a 10k catalogue is 2.2 M characters of JSON, not 3.9 M: the segments are what a
 * cold start reads most of from IndexedDB (issue 25), and cloning them cost 23 ms, not 66.
 */
type RowTuple = [id: string, ...always: unknown[]]

const TUPLE_LENGTH = ALWAYS.length + 1

/** The catalogue in segments of {@link CATALOGUE_SEGMENT_ROWS}, in catalogue order. */
export function catalogueSegments(memories: Iterable<Memory>): CatalogueSegment[] {
  const segments: CatalogueSegment[] = []
  let batch: Memory[] = []
  for (const memory of memories) {
    batch.push(memory)
    if (batch.length === CATALOGUE_SEGMENT_ROWS) {
      segments.push(segmentOf(batch))
      batch = []
    }
  }
  if (batch.length > 0) segments.push(segmentOf(batch))
  return segments
}

/**
 * A catalogue segment as {@link segmentsOf} gives it: without `rows` when no row in it changed
 * since the last call, whose save stored it (a save that finds another hash stored asks again
 * with `all`).
 */
export type MadeSegment = Pick<CatalogueSegment, 'hash'> & Partial<Pick<CatalogueSegment, 'rows'>>

/** What {@link segmentsOf} made last for a catalogue: the hash and the slots of each segment. */
interface Made {
  /** The catalogue's `writes` then: a slot stamped later was set since. */
  writes: number
  slots: Uint32Array[]
  hashes: string[]
}
const made = new WeakMap<Catalogue, Made>()

/**
 * The catalogue's segments, as {@link catalogueSegments} makes them, serialising only those
 * whose slots differ from the last call's (or {@link adoptSegments}') or were set since, unless
 * `all`. An import appends, so a save serialises its last segment and the new ones where it
 * serialised every row (19% of a 20 MB import's worker, issue 29). Only hashes and slots are
 * kept between calls (4 bytes a row), not the JSON.
 */
export function segmentsOf(catalogue: Catalogue, all = false): MadeSegment[] {
  const last = all ? undefined : made.get(catalogue)
  const segments: MadeSegment[] = []
  const slotLists: Uint32Array[] = []
  const batch = new Uint32Array(CATALOGUE_SEGMENT_ROWS)
  let n = 0
  const flush = () => {
    const slots = batch.slice(0, n)
    const i = segments.length
    const kept = last && unchanged(catalogue, slots, last.slots[i], last.writes)
    segments.push(
      kept
        ? { hash: last.hashes[i]! }
        : segmentOf(Array.from(slots, (slot) => catalogue.rowAt(slot))),
    )
    slotLists.push(slots)
    n = 0
  }
  for (const slot of catalogue.slots()) {
    batch[n++] = slot
    if (n === CATALOGUE_SEGMENT_ROWS) flush()
  }
  if (n > 0) flush()
  const hashes = segments.map((segment) => segment.hash)
  made.set(catalogue, { writes: catalogue.writes, slots: slotLists, hashes })
  return segments
}

/**
 * Takes `segments` as what the catalogue holds now, for {@link segmentsOf} to keep: a cold start
 * built it from them, row for row, so the first save after it serialises only what changed.
 * Ignored unless their row counts match the catalogue's.
 */
export function adoptSegments(catalogue: Catalogue, segments: readonly CatalogueSegment[]): void {
  const every = Uint32Array.from(catalogue.slots())
  const slots: Uint32Array[] = []
  for (let from = 0; from < every.length; from += CATALOGUE_SEGMENT_ROWS) {
    slots.push(every.slice(from, from + CATALOGUE_SEGMENT_ROWS))
  }
  const sized =
    slots.length === segments.length &&
    segments.every((segment, i) => segment.hash.endsWith(`:${slots[i]!.length}`))
  const hashes = segments.map((segment) => segment.hash)
  if (sized) made.set(catalogue, { writes: catalogue.writes, slots, hashes })
}

/** Whether `slots` are `before`, in order, none set after `writes`. */
function unchanged(
  catalogue: Catalogue,
  slots: Uint32Array,
  before: Uint32Array | undefined,
  writes: number,
): boolean {
  if (!before || before.length !== slots.length) return false
  for (let i = 0; i < slots.length; i++) {
    if (slots[i] !== before[i] || catalogue.stampAt(slots[i]!) > writes) return false
  }
  return true
}

function segmentOf(memories: readonly Memory[]): CatalogueSegment {
  const rows = JSON.stringify(memories.map((memory) => toTuple(memory) ?? memory))
  return { rows, hash: `${hashText(rows)}:${memories.length}` }
}

/**
 * A segment's rows again, as {@link catalogueSegments} was given them (as JSON gives them back);
 * undefined when the segment is not a list of rows (damaged).
 */
export function segmentRows(segment: CatalogueSegment): Memory[] | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(segment.rows)
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed)) return undefined
  const rows: Memory[] = new Array(parsed.length)
  for (let i = 0; i < parsed.length; i++) {
    const item = parsed[i] as unknown
    if (Array.isArray(item)) {
      const row = fromTuple(item)
      if (!row) return undefined
      rows[i] = row
    } else if (typeof item === 'object' && item !== null) rows[i] = item as Memory
    else return undefined
  }
  return rows
}

/** The row as a {@link RowTuple}, or undefined when it lacks an id or an always-set field. */
function toTuple(memory: Memory): RowTuple | undefined {
  const m = memory as unknown as Record<string, unknown>
  if (typeof m.id !== 'string') return undefined
  const tuple: RowTuple = [m.id]
  for (const field of ALWAYS) {
    const value = m[field]
    if (value === undefined) return undefined
    tuple.push(value)
  }
  let rest: Record<string, unknown> | undefined
  for (const field of Object.keys(m)) {
    if (field === 'id' || ALWAYS_FIELDS.has(field) || m[field] === undefined) continue
    rest ??= {}
    rest[field] = m[field]
  }
  if (rest) tuple.push(rest)
  return tuple
}

/** The row of a {@link RowTuple}, in `toMemory`'s field order; undefined for a malformed one. */
function fromTuple(t: unknown[]): Memory | undefined {
  const rest = t[TUPLE_LENGTH]
  const sized =
    t.length === TUPLE_LENGTH ||
    (t.length === TUPLE_LENGTH + 1 && typeof rest === 'object' && rest !== null)
  if (!sized || typeof t[0] !== 'string') return undefined
  const row = {
    id: t[0],
    namespace: t[1],
    type: t[2],
    text: t[3],
    key: t[4],
    tags: t[5],
    aliases: t[6],
    source: t[7],
    trust: t[8],
    confidence: t[9],
    tier: t[10],
    flags: t[11],
    createdAt: t[12],
    updatedAt: t[13],
    confirmedAt: t[14],
    confirmations: t[15],
    recallCount: t[16],
  }
  if (rest) Object.assign(row, rest)
  return row as unknown as Memory
}

const ALWAYS_FIELDS: ReadonlySet<string> = new Set(ALWAYS)

/** A vector snapshot cut in segments: every segment's hash, and the segments copied out. */
export interface VectorSegments {
  head: VectorHead
  /** Each segment's hash, in order. */
  hashes: string[]
  /** The segments copied out, by position: all of them unless the caller said which. */
  segments: Map<number, VectorSegment>
}

/**
 * The vector snapshot's settings and its rows in segments of at most `maxBytes`, each hashed.
 * Only the segments `wanted` accepts (by position and hash; all by default) are copied out, so a
 * save that finds most segments stored already hashes the index but copies a segment or two:
 * `snapshot` may be {@link VectorIndex.view}'s views, read here and let go.
 */
export function vectorSegments(
  snapshot: VectorIndexSnapshot,
  maxBytes = VECTOR_SEGMENT_BYTES,
  wanted: (position: number, hash: string) => boolean = () => true,
): VectorSegments {
  const { ids, codes, scales, signs, groups, vectors, ...settings } = snapshot
  const n = ids.length
  const signWidth = n > 0 ? signs.length / n : 0
  const perSegment = rowsPerVectorSegment(snapshot, maxBytes)
  const hashes: string[] = []
  const segments = new Map<number, VectorSegment>()
  for (let from = 0; from < n; from += perSegment) {
    const to = Math.min(n, from + perSegment)
    const rows = (array: Int8Array | Float32Array | Uint32Array | Uint16Array, width: number) =>
      array.subarray(from * width, to * width)
    const part = {
      ids: ids.slice(from, to),
      codes: rows(codes, snapshot.stride) as Int8Array,
      scales: rows(scales, 1) as Float32Array,
      signs: rows(signs, signWidth) as Uint32Array,
      groups: rows(groups, 1) as Uint16Array,
      ...(vectors ? { vectors: rows(vectors, snapshot.dims) as Float32Array } : {}),
    }
    const hash = hashVectorSegment(part)
    const position = hashes.push(hash) - 1
    if (!wanted(position, hash)) continue
    // `slice`, not the views: a view would clone its whole buffer into the segment.
    segments.set(position, {
      ids: part.ids,
      codes: part.codes.slice(),
      scales: part.scales.slice(),
      signs: part.signs.slice(),
      groups: part.groups.slice(),
      ...(part.vectors ? { vectors: part.vectors.slice() } : {}),
      hash,
    })
  }
  return { head: { ...settings, rows: n }, hashes, segments }
}

/** How many rows of `snapshot` a vector segment of `maxBytes` holds (at least one). */
export function rowsPerVectorSegment(
  snapshot: VectorIndexSnapshot,
  maxBytes = VECTOR_SEGMENT_BYTES,
): number {
  const n = snapshot.ids.length
  const signWidth = n > 0 ? snapshot.signs.length / n : 0
  const vectorBytes = snapshot.vectors ? snapshot.dims * 4 : 0
  const rowBytes = snapshot.stride + 4 + signWidth * 4 + 2 + vectorBytes + 64
  return Math.max(1, Math.floor(maxBytes / rowBytes))
}

/**
 * The vector snapshot again from its head and segments, in order, as one part per segment, for
 * `VectorIndex.deserialize` to copy into the index as it is (the segments' arrays, not copies):
 * joining them first cost a second copy of every row. Throws on a short one.
 */
export function vectorParts(
  head: VectorHead,
  segments: readonly VectorSegment[],
): VectorIndexSnapshot[] {
  const { rows, ...settings } = head
  let held = 0
  for (const segment of segments) held += segment.ids.length
  if (held !== rows) throw new Error(`expected ${rows} vector rows, got ${held}`)
  const hasVectors = segments.length > 0 && segments.every((s) => s.vectors !== undefined)
  return segments.map(({ ids, codes, scales, signs, groups, vectors }) => ({
    ...settings,
    ids,
    codes,
    scales,
    signs,
    groups,
    ...(hasVectors && vectors ? { vectors } : {}),
  }))
}

/** FNV-1a of a text's UTF-16 units, as 8 hex digits. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/** FNV-1a over 32-bit words of typed arrays' bytes (the tail bytes one by one), as 8 hex digits. */
export function hashWords(...arrays: ArrayBufferView[]): string {
  let hash = 0x811c9dc5
  for (const array of arrays) {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
    const whole = bytes.length & ~3
    // A view at an unaligned offset cannot be read as words: copy it first.
    const words =
      bytes.byteOffset % 4 === 0
        ? new Int32Array(bytes.buffer, bytes.byteOffset, whole >> 2)
        : new Int32Array(bytes.slice(0, whole).buffer)
    for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193)
    for (let i = whole; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/** A hash of every id and array byte of a segment, so an unchanged one is not rewritten. */
function hashVectorSegment(segment: Omit<VectorSegment, 'hash'>): string {
  const { codes, scales, signs, groups, vectors } = segment
  const bytes = hashWords(codes, scales, signs, groups, ...(vectors ? [vectors] : []))
  const ids = hashText(segment.ids.join('\u0000'))
  return `${bytes}${ids}:${segment.ids.length}`
}

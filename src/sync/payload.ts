import type { Memory } from '../core/types.ts'
import { canonicalJson } from './bytes.ts'
import { nextVersion, type VersionVector } from './versions.ts'

/** The fields that only ever grow, kept per contributor so merges neither lose nor double count. */
export const COUNTERS = ['confirmations', 'recallCount'] as const
export type Counter = (typeof COUNTERS)[number]

/** Per contributor: a device id, or `~` + the document id of a near duplicate folded in. */
export type Counts = Record<Counter, Record<string, number>>

/** The row fields a payload carries: every stored field but the local id and the counters. */
export type PayloadRow = Omit<Memory, 'id' | Counter>

/** A memory's vector, carried only when the caller opts in (`vectors: true`). */
export interface PayloadVector {
  model: string
  dims: number
  /** Base64 of the float32 bytes. */
  data: string
}

/** The plaintext of a replicated memory, sealed before it leaves the device. */
export interface MemoryPayload {
  t: 'memory'
  /** The whole stored row, generically, so fields added later replicate without a change here. */
  row: PayloadRow
  /** The writer's local id: a receiving device reuses it when free, so ids mostly agree. */
  origin: string
  counts: Counts
  vector?: PayloadVector
  /** Which version this is: per device, how many versions of this memory it wrote. */
  vv: VersionVector
  /** The IVs (keyed MACs) of the versions this one replaces: the chain it continues. */
  prev: string[]
  /**
   * When each field last changed, where that is not `createdAt`: row field names, and
   * `meta.<key>` per meta entry, so concurrent edits of different fields merge field by field.
   */
  at: Record<string, number>
  /** An earlier text kept beside the one that won a concurrent edit: the document it was of. */
  kept?: string
}

/** A forgotten document's sealed body: a tombstone the server cannot forge or post-date. */
export interface ForgetPayload {
  /** `forget`: the memory or edge was forgotten; `drop`: a branch a merge ended. */
  t: 'forget' | 'drop'
  at: number
  vv: VersionVector
  prev: string[]
}

/** Row fields merged by rules of their own rather than by their field time. */
export const TIMED_APART = new Set(['createdAt', 'updatedAt', 'confirmedAt', 'lastRecalledAt'])

/** Fields that change together: the dedup key follows the text. */
export function fieldOf(name: string): string {
  return name === 'key' ? 'text' : name
}

/** When field `name` (a row field, or `meta.<key>`) of `payload` last changed. */
export function fieldTime(payload: MemoryPayload, name: string): number {
  return payload.at?.[name] ?? payload.row.createdAt
}

/**
 * The payload of a local row. Counters are grow-only per contributor (a G-counter): this
 * device's entry takes whatever the row's total gained over `previous`, the payload it last saw
 * for this memory; other contributors' entries are kept as they were.
 */
export function toPayload(
  row: Memory,
  device: string,
  previous?: MemoryPayload,
  vector?: PayloadVector,
  prev: string[] = [],
): MemoryPayload {
  const { id, confirmations, recallCount, ...rest } = row
  const totals: Record<Counter, number> = { confirmations, recallCount }
  const counts = {} as Counts
  for (const c of COUNTERS) {
    const held = { ...previous?.counts[c] }
    const gained = totals[c] - sum(held)
    if (gained > 0) held[device] = (held[device] ?? 0) + gained
    counts[c] = held
  }
  const payload: MemoryPayload = {
    t: 'memory',
    row: rest,
    origin: previous?.origin ?? id,
    counts,
    vv: nextVersion(previous?.vv, device),
    prev,
    at: fieldTimes(rest, previous),
  }
  if (vector) payload.vector = vector
  return payload
}

/** Field times of `row` against the version it was edited from: a changed field, `updatedAt`. */
function fieldTimes(row: PayloadRow, previous: MemoryPayload | undefined): Record<string, number> {
  const at: Record<string, number> = {}
  const set = (name: string, now: unknown, before: unknown) => {
    const time =
      previous && canonicalJson(now) === canonicalJson(before)
        ? fieldTime(previous, name)
        : row.updatedAt
    if (time !== row.createdAt) at[name] = time
  }
  const before = (previous?.row ?? {}) as Record<string, unknown>
  const fields = row as unknown as Record<string, unknown>
  for (const name of new Set([...Object.keys(fields), ...Object.keys(before)])) {
    if (TIMED_APART.has(name) || name === 'key' || name === 'meta') continue
    set(name, fields[name], before[name])
  }
  const meta = row.meta ?? {}
  const metaBefore = (before.meta ?? {}) as Record<string, unknown>
  const removed = Object.keys(previous?.at ?? {})
    .filter((name) => name.startsWith('meta.'))
    .map((name) => name.slice(5))
  for (const key of new Set([...Object.keys(meta), ...Object.keys(metaBefore), ...removed])) {
    set(`meta.${key}`, meta[key], metaBefore[key])
  }
  return at
}

/** A payload's content, what a device compares to know whether a row changed. */
export function contentOf(payload: MemoryPayload): string {
  return canonicalJson({ row: payload.row, counts: payload.counts, at: payload.at })
}

/** The local row of a payload, under the local `id`. */
export function toRow(payload: MemoryPayload, id: string): Memory {
  return {
    ...payload.row,
    id,
    confirmations: Math.max(1, sum(payload.counts.confirmations)),
    recallCount: sum(payload.counts.recallCount),
  } as Memory
}

export function sum(counts: Record<string, number> | undefined): number {
  let total = 0
  for (const n of Object.values(counts ?? {})) total += n
  return total
}

import type { Memory } from '../core/types.ts'

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
  const payload: MemoryPayload = { t: 'memory', row: rest, origin: id, counts }
  if (vector) payload.vector = vector
  return payload
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

export function vectorToBase64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength)
  let binary = ''
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return btoa(binary)
}

export function vectorFromBase64(text: string): Float32Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return new Float32Array(bytes.buffer)
}

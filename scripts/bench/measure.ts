/** Timing and size helpers shared by the Node and Chromium runs. */
import type { Latency } from './types.ts'

/** Nearest-rank percentile of `samples` (unsorted), in their unit. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(sorted.length, rank) - 1] as number
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export function latency(samples: readonly number[]): Latency {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), n: samples.length }
}

/**
 * Runs `task(i)` for i = 0..count-1 one after another and returns each duration in ms. Stops
 * early once `budgetMs` is spent and at least `min` ran, so one slow peer cannot eat the run.
 */
export async function timeEach(
  count: number,
  task: (i: number) => Promise<unknown>,
  budgetMs = Number.POSITIVE_INFINITY,
  min = 5,
): Promise<number[]> {
  const times: number[] = []
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const t = performance.now()
    await task(i)
    times.push(performance.now() - t)
    if (i + 1 >= min && performance.now() - started > budgetMs) break
  }
  return times
}

/**
 * Approximate structured-clone size of a value: typed arrays by their bytes, strings at one byte
 * per ASCII character (two otherwise), numbers 8, plus a little per property. Used alike in Node
 * and Chromium, so stored sizes compare across systems.
 */
export function approxBytes(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 1
  switch (typeof value) {
    case 'string':
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII test
      return 4 + (/^[\u0000-\u007f]*$/.test(value) ? value.length : value.length * 2)
    case 'number':
      return 8
    case 'boolean':
      return 1
    case 'bigint':
      return 16
    case 'object':
      break
    default:
      return 0
  }
  if (ArrayBuffer.isView(value)) return 8 + value.byteLength
  if (value instanceof ArrayBuffer) return 8 + value.byteLength
  if (depth > 64) return 0
  let total = 4
  if (Array.isArray(value)) {
    for (const item of value) total += approxBytes(item, depth + 1)
    return total
  }
  if (value instanceof Map) {
    for (const [k, v] of value) total += approxBytes(k, depth + 1) + approxBytes(v, depth + 1)
    return total
  }
  if (value instanceof Set) {
    for (const v of value) total += approxBytes(v, depth + 1)
    return total
  }
  if (value instanceof Blob) return 8 + value.size
  for (const [k, v] of Object.entries(value)) total += 4 + k.length + approxBytes(v, depth + 1)
  return total
}

/** Exact float32 top-10 by dot product: the reference for recall@10. */
export function exactTop10(query: Float32Array, vectors: readonly Float32Array[]): number[] {
  const best: { id: number; s: number }[] = []
  for (let id = 0; id < vectors.length; id++) {
    const v = vectors[id] as Float32Array
    let s = 0
    for (let i = 0; i < v.length; i++) s += (query[i] as number) * (v[i] as number)
    if (best.length < 10 || s > (best[best.length - 1] as { s: number }).s) {
      best.push({ id, s })
      best.sort((a, b) => b.s - a.s || a.id - b.id)
      if (best.length > 10) best.pop()
    }
  }
  return best.map((b) => b.id)
}

/** |found ∩ exact| / |exact|. */
export function overlap(found: readonly number[], exact: readonly number[]): number {
  if (exact.length === 0) return 1
  const want = new Set(exact)
  let hit = 0
  for (const id of found) if (want.has(id)) hit++
  return hit / exact.length
}

import { COUNTERS, type Counts, type MemoryPayload, sum } from './payload.ts'

/** One leaf revision of a replicated document, as CouchDB keeps it after concurrent writes. */
export type Leaf =
  | { rev: string; deleted: false; payload: MemoryPayload }
  /** A tombstone; `at` is when it was forgotten (0 for a loser a merge removed). */
  | { rev: string; deleted: true; at: number }

/** What every device decides for the same set of leaves. */
export type Resolution =
  | { outcome: 'live'; payload: MemoryPayload; losers: string[] }
  | { outcome: 'forgotten'; at: number; losers: string[] }

/**
 * Merges concurrent versions of one memory by rule, the same on every device whatever order the
 * versions arrived in:
 * - the latest `updatedAt` wins the fields (ties: the greater revision id);
 * - `createdAt` the earliest, `confirmedAt` and `lastRecalledAt` the latest;
 * - `tags` and `aliases` unioned (the winner's order first), so neither device's additions are lost;
 * - counters per contributor by maximum, the total their sum: a plain sum would count twice what
 *   both versions inherited, a plain maximum would drop one device's confirmations.
 *
 * @example
 * mergePayloads([a, b]).row.createdAt === Math.min(a.row.createdAt, b.row.createdAt)
 * // => true
 */
export function mergePayloads(
  versions: readonly { rev: string; payload: MemoryPayload }[],
): MemoryPayload {
  const ordered = [...versions].sort(
    (x, y) => y.payload.row.updatedAt - x.payload.row.updatedAt || compare(y.rev, x.rev),
  )
  const base = ordered[0]!.payload
  const all = ordered.map((v) => v.payload)
  const row = { ...base.row }
  row.createdAt = Math.min(...all.map((p) => p.row.createdAt))
  row.confirmedAt = Math.max(...all.map((p) => p.row.confirmedAt))
  const recalled = all.map((p) => p.row.lastRecalledAt).filter((t) => t !== undefined)
  if (recalled.length > 0) row.lastRecalledAt = Math.max(...recalled)
  row.tags = union(all.map((p) => p.row.tags ?? []))
  row.aliases = union(all.map((p) => p.row.aliases ?? []))
  const merged: MemoryPayload = { t: 'memory', row, origin: base.origin, counts: maxCounts(all) }
  const vector = base.vector ?? all.find((p) => p.vector)?.vector
  if (vector) merged.vector = vector
  return merged
}

/**
 * Resolves a document's leaves: the live versions merged (see {@link mergePayloads}), unless a
 * forget is at least as recent as the merged version, in which case the memory is forgotten.
 * A forget wins over an edit it did not see only when it came later: last writer wins, with
 * forgetting counted as a write. `losers` are the live revisions to delete besides `keep`.
 */
export function resolveLeaves(leaves: readonly Leaf[], keep: string): Resolution {
  const live = leaves.filter((l) => !l.deleted)
  let forgotAt = 0
  for (const l of leaves) if (l.deleted && l.at > forgotAt) forgotAt = l.at
  if (live.length === 0) return { outcome: 'forgotten', at: forgotAt, losers: [] }
  const payload = mergePayloads(live)
  if (forgotAt > 0 && forgotAt >= payload.row.updatedAt) {
    return { outcome: 'forgotten', at: forgotAt, losers: live.map((l) => l.rev) }
  }
  return { outcome: 'live', payload, losers: live.map((l) => l.rev).filter((r) => r !== keep) }
}

/**
 * Folds a near duplicate into the memory that won over it: its confirmations count for the
 * winner under the key `~loserId`, set rather than added, so two devices folding the same loser
 * count it once.
 */
export function foldInto(
  winner: MemoryPayload,
  loserId: string,
  loser: MemoryPayload,
): MemoryPayload {
  const confirmations = { ...winner.counts.confirmations }
  confirmations[`~${loserId}`] = Math.max(
    confirmations[`~${loserId}`] ?? 0,
    sum(loser.counts.confirmations),
  )
  const row = { ...winner.row, tags: union([winner.row.tags ?? [], loser.row.tags ?? []]) }
  row.createdAt = Math.min(winner.row.createdAt, loser.row.createdAt)
  row.confirmedAt = Math.max(winner.row.confirmedAt, loser.row.confirmedAt)
  return { ...winner, row, counts: { ...winner.counts, confirmations } }
}

function maxCounts(payloads: readonly MemoryPayload[]): Counts {
  const out = {} as Counts
  for (const c of COUNTERS) {
    const merged: Record<string, number> = {}
    for (const p of payloads) {
      for (const [who, n] of Object.entries(p.counts?.[c] ?? {})) {
        if (n > (merged[who] ?? 0)) merged[who] = n
      }
    }
    out[c] = merged
  }
  return out
}

function union(lists: readonly (readonly string[])[]): string[] {
  const seen = new Set<string>()
  for (const list of lists) for (const item of list) seen.add(item)
  return [...seen]
}

/** Code-unit order, never locale order: every device must sort the same way. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

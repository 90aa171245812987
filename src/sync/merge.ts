import { canonicalJson } from './bytes.ts'
import {
  COUNTERS,
  type Counts,
  fieldOf,
  fieldTime,
  type MemoryPayload,
  sum,
  TIMED_APART,
} from './payload.ts'
import { compareVersions, joinVersions, type VersionVector } from './versions.ts'

/** One leaf revision of a replicated document, as CouchDB keeps it after concurrent writes. */
export type Leaf =
  | { rev: string; deleted: false; payload: MemoryPayload; iv: string }
  /** A forget; `at` is when it was forgotten. */
  | { rev: string; deleted: true; at: number; vv: VersionVector; iv: string }

/** What every device decides for the same set of leaves. */
export type Resolution =
  | {
      outcome: 'live'
      payload: MemoryPayload
      kept: MemoryPayload[]
      fields: string[]
      losers: string[]
    }
  | { outcome: 'forgotten'; at: number; vv: VersionVector; prev: string[]; losers: string[] }

/** A merge: the payload, and earlier texts it replaced, to keep as versions of their own. */
export interface Merged {
  payload: MemoryPayload
  /** Each concurrent text that lost, as it stood, marked `kept` (see {@link keptVersion}). */
  kept: MemoryPayload[]
  /** The fields the versions disagreed on (`text`, `tags`, `meta.<key>`…), sorted. */
  fields: string[]
}

/**
 * Merges concurrent versions of one memory field by field, the same on every device whatever
 * order the versions arrived in:
 * - each field (`text` with its key, `confidence`, `source`…) from the version that changed it
 *   last (its field time; ties: the greater value), and `meta` the same way key by key;
 * - `tags` and `aliases` unioned (the latest version's order first);
 * - `createdAt` the earliest, `updatedAt`, `confirmedAt` and `lastRecalledAt` the latest;
 * - counters per contributor by maximum, the total their sum: a plain sum would count twice what
 *   both versions inherited, a plain maximum would drop one device's confirmations;
 * - the version vector their join, so the merge is newer than each.
 * A text that lost is returned in `kept`: the later text supersedes it, it is not thrown away.
 *
 * @example
 * mergePayloads([a, b]).payload.row.createdAt === Math.min(a.row.createdAt, b.row.createdAt)
 * // => true
 */
export function mergePayloads(versions: readonly MemoryPayload[], prev: string[] = []): Merged {
  const all = [...versions].sort(
    (x, y) => y.row.updatedAt - x.row.updatedAt || compare(contentKey(y), contentKey(x)),
  )
  const latest = all[0]!
  const row: Record<string, unknown> = {}
  const at: Record<string, number> = {}
  const fields = new Set<string>()
  const names = new Set<string>()
  for (const p of all) for (const name of Object.keys(p.row)) names.add(name)
  const winners = new Map<string, MemoryPayload>()
  for (const name of names) {
    if (TIMED_APART.has(name) || name === 'meta' || name === 'tags' || name === 'aliases') continue
    const field = fieldOf(name)
    let winner = winners.get(field)
    if (!winner) {
      winner = pick(all, field, (p) => (p.row as Record<string, unknown>)[field])
      winners.set(field, winner)
      const time = fieldTime(winner, field)
      if (time !== undefined) at[field] = time
      if (disagree(all, (p) => (p.row as Record<string, unknown>)[field])) fields.add(field)
    }
    const value = (winner.row as Record<string, unknown>)[name]
    if (value !== undefined) row[name] = value
  }
  const metaKeys = new Set<string>()
  for (const p of all) {
    for (const key of Object.keys(p.row.meta ?? {})) metaKeys.add(key)
    for (const name of Object.keys(p.at ?? {}))
      if (name.startsWith('meta.')) metaKeys.add(name.slice(5))
  }
  const meta: Record<string, unknown> = {}
  for (const key of metaKeys) {
    const value = (p: MemoryPayload) => p.row.meta?.[key]
    const winner = pick(all, `meta.${key}`, value)
    at[`meta.${key}`] = fieldTime(winner, `meta.${key}`)
    if (disagree(all, value)) fields.add(`meta.${key}`)
    if (value(winner) !== undefined) meta[key] = value(winner)
  }
  if (Object.keys(meta).length > 0) row.meta = meta
  for (const list of ['tags', 'aliases'] as const) {
    row[list] = union(all.map((p) => p.row[list] ?? []))
    if (disagree(all, (p) => [...(p.row[list] ?? [])].sort())) fields.add(list)
  }
  row.createdAt = Math.min(...all.map((p) => p.row.createdAt))
  row.updatedAt = Math.max(...all.map((p) => p.row.updatedAt))
  row.confirmedAt = Math.max(...all.map((p) => p.row.confirmedAt))
  const recalled = all.map((p) => p.row.lastRecalledAt).filter((t) => t !== undefined)
  if (recalled.length > 0) row.lastRecalledAt = Math.max(...recalled)
  for (const [name, time] of Object.entries(at)) if (time === row.createdAt) delete at[name]
  const textWinner = winners.get('text') ?? latest
  const payload: MemoryPayload = {
    t: 'memory',
    row: row as unknown as MemoryPayload['row'],
    origin: latest.origin,
    counts: maxCounts(all),
    vv: joinVersions(...all.map((p) => p.vv ?? {})),
    prev: [...prev].sort(),
    at,
  }
  const vector = textWinner.vector ?? all.find((p) => p.vector && p.row.text === row.text)?.vector
  if (vector) payload.vector = vector
  const kept: MemoryPayload[] = []
  const texts = new Set([payload.row.text])
  for (const p of all) {
    if (texts.has(p.row.text) || p.kept) continue
    texts.add(p.row.text)
    kept.push(p)
  }
  return { payload, kept, fields: [...fields].sort() }
}

/**
 * An earlier text kept as a memory of its own, marked `kept` with the document it was a version
 * of. Its sealed bytes depend only on the version it comes from, so every device that merges
 * writes the same document.
 */
export function keptVersion(version: MemoryPayload, of: string): MemoryPayload {
  const { vector: _vector, ...rest } = version
  return { ...rest, kept: of, prev: [] }
}

/**
 * Resolves a document's leaves: versions another leaf has seen are dropped; the live ones left
 * are merged (see {@link mergePayloads}), unless a forget is at least as recent as the merged
 * version, in which case the memory is forgotten. A forget wins over an edit it did not see only
 * when it came later: last writer wins, with forgetting counted as a write. `losers` are the
 * live revisions to end besides `keep`.
 */
export function resolveLeaves(leaves: readonly Leaf[], keep: string): Resolution {
  const vvOf = (l: Leaf) => (l.deleted ? l.vv : (l.payload.vv ?? {}))
  const current = leaves.filter(
    (l) => !leaves.some((o) => o !== l && compareVersions(vvOf(l), vvOf(o)) === 'before'),
  )
  const live = current.filter((l) => !l.deleted)
  const prev = current.map((l) => l.iv)
  const vv = joinVersions(...current.map(vvOf))
  let forgotAt = 0
  for (const l of current) if (l.deleted && l.at > forgotAt) forgotAt = l.at
  const liveRevs = leaves.filter((l) => !l.deleted).map((l) => l.rev)
  if (live.length === 0) return { outcome: 'forgotten', at: forgotAt, vv, prev, losers: liveRevs }
  const merged =
    live.length === 1 && current.length === 1
      ? { payload: live[0]!.payload, kept: [], fields: [] }
      : mergePayloads(
          live.map((l) => l.payload),
          prev,
        )
  const payload = { ...merged.payload, vv }
  if (forgotAt > 0 && forgotAt >= payload.row.updatedAt) {
    return { outcome: 'forgotten', at: forgotAt, vv, prev, losers: liveRevs }
  }
  return {
    outcome: 'live',
    payload,
    kept: merged.kept,
    fields: merged.fields,
    losers: liveRevs.filter((r) => r !== keep),
  }
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

/** The version that changed `field` last; ties go to the greater value, the same everywhere. */
function pick(
  all: readonly MemoryPayload[],
  field: string,
  value: (p: MemoryPayload) => unknown,
): MemoryPayload {
  let best = all[0]!
  for (const p of all.slice(1)) {
    const d = fieldTime(p, field) - fieldTime(best, field)
    if (d > 0 || (d === 0 && compare(json(value(p)), json(value(best))) > 0)) best = p
  }
  return best
}

function disagree(all: readonly MemoryPayload[], value: (p: MemoryPayload) => unknown): boolean {
  const first = json(value(all[0]!))
  return all.some((p) => json(value(p)) !== first)
}

function json(value: unknown): string {
  return value === undefined ? '' : canonicalJson(value)
}

function contentKey(p: MemoryPayload): string {
  return canonicalJson({ row: p.row, counts: p.counts })
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

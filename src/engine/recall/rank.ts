import type { FusedCandidate } from '../../core/fusion.ts'
import { type ConfidenceReading, confidenceAt } from '../../core/lifecycle.ts'
import type { BoostOptions, LifecycleOptions } from '../../core/options.ts'
import {
  boostFactor,
  computeBoosts,
  namesTime,
  timeBoost,
  whenBoost,
} from '../../core/recall/boosts.ts'
import { formatWindow } from '../../core/time/index.ts'
import type { Boost, Memory } from '../../core/types.ts'

/** A fused candidate with its row, the boosts it earned and its final score. */
export interface Ranked {
  candidate: FusedCandidate
  memory: Memory
  boosts: Boost[]
  /** `candidate.fused` times the product of the boosts. */
  score: number
  /** The memory's confidence at recall time, when ranked with a lifecycle. */
  confidence?: ConfidenceReading
}

/** The time boost of a recall: the windows the query names and the factor a memory in one earns. */
export interface TimeBoosting {
  windows: readonly { start: number; end: number }[]
  factor: number
  /** The calendar the windows were read in, for their labels. @default 0 */
  offsetMinutes?: number
  /** The query asks when (`asksWhen`): a memory whose text names a time earns the factor too. */
  when?: boolean
}

/**
 * Applies the multiplicative boosts at time `now` (none when `boosts` is null) and sorts by the
 * boosted score. With `lifecycle`, the confidence boost follows the memory's current confidence
 * (decayed by disuse, reinforced by use; `confidenceAt`), else its confidence at write. With
 * `time`, a memory lying in one of its windows earns the time boost, and for a "when" question
 * one whose text names a time earns it too, whatever `boosts` says (`RecallOptions.time`
 * switches both). Stable: equal scores keep fusion's order, which already
 * breaks ties deterministically. A candidate whose row is gone is dropped.
 */
export function rankCandidates(
  fused: readonly FusedCandidate[],
  catalogue: ReadonlyMap<string, Memory>,
  boosts: BoostOptions | null,
  now: number,
  lifecycle?: LifecycleOptions,
  time?: TimeBoosting,
): Ranked[] {
  const ranked: Ranked[] = []
  const label = (w: { start: number; end: number }) =>
    formatWindow(w, { offsetMinutes: time?.offsetMinutes ?? 0 })
  for (const candidate of fused) {
    const memory = catalogue.get(candidate.id)
    if (!memory) continue
    const reading = lifecycle ? confidenceAt(memory, now, lifecycle) : undefined
    const earned = boosts ? computeBoosts(memory, now, boosts, reading?.value) : []
    const dated =
      time && time.windows.length > 0 && timeBoost(memory, time.windows, time.factor, label)
    if (dated) earned.push(dated)
    const answersWhen = time?.when && whenBoost(memory, time.factor, namedTimes(catalogue))
    if (answersWhen) earned.push(answersWhen)
    const one: Ranked = {
      candidate,
      memory,
      boosts: earned,
      score: candidate.fused * boostFactor(earned),
    }
    if (reading) one.confidence = reading
    ranked.push(one)
  }
  return ranked.sort((a, b) => b.score - a.score)
}

/**
 * Whether a memory names a time, kept per catalogue: every candidate of every "when" question
 * asks it, and a text's time words do not change. Held with the catalogue (a WeakMap), so the
 * answers go when the indexes do (a close, a lock), and checked against the row's text and time.
 */
const named = new WeakMap<object, Map<string, { text: string; at: number; names: boolean }>>()

function namedTimes(catalogue: object): (memory: Memory) => boolean {
  let held = named.get(catalogue)
  if (!held) {
    held = new Map()
    named.set(catalogue, held)
  }
  const answers = held
  return (memory) => {
    const at = memory.happenedAt ?? memory.createdAt
    const kept = answers.get(memory.id)
    if (kept && kept.text === memory.text && kept.at === at) return kept.names
    const names = namesTime(memory)
    // Emptied when full, as the keyword index's analysed terms are.
    if (answers.size >= NAMED_TIMES) answers.clear()
    answers.set(memory.id, { text: memory.text, at, names })
    return names
  }
}

/** How many memories' answers {@link namedTimes} keeps per catalogue. */
const NAMED_TIMES = 4096

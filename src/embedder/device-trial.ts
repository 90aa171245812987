/**
 * The capped device trial behind `device: 'auto'`: candidates timed one after another, the
 * first that loads as the baseline, and every later one stopped as soon as it is clearly slower.
 * Generic over what a candidate loads, so the rule runs the same on real pipelines and in tests.
 */

import type { DeviceTrialEntry, DeviceTrialStats } from '../core/types.ts'
import { errorText } from './checks.ts'
import { DEVICE_TRIAL_FACTOR, DEVICE_TRIAL_FLOOR_MS } from './transformers-options.ts'

/** One device to time: how to load it, run the trial batch once, and release it. */
export interface TrialCandidate<P> {
  device: string
  open(): Promise<P>
  run(loaded: P): Promise<unknown>
  dispose(loaded: P): Promise<unknown>
}

/** The numbers of the cap rule (documented at `TransformersEmbedderOptions.device`). */
export interface TrialRule {
  /** Timed runs after the warm-up. */
  runs: number
  /** A challenger may take this many times the baseline's warm-up and runs… */
  factor: number
  /** …and at least this many milliseconds. */
  floorMs: number
}

export const DEFAULT_TRIAL_RULE: Readonly<TrialRule> = Object.freeze({
  runs: 3,
  factor: DEVICE_TRIAL_FACTOR,
  floorMs: DEVICE_TRIAL_FLOOR_MS,
})

/** What the trial decided: the winner, still loaded, and the figures. */
export interface TrialOutcome<P> {
  winner?: { device: string; loaded: P }
  stats: DeviceTrialStats
}

/** A challenger's time allowance, from the baseline's warm-up plus timed runs. */
export function trialBudgetMs(baselineComputeMs: number, rule: TrialRule): number {
  return Math.max(rule.floorMs, rule.factor * baselineComputeMs)
}

/**
 * Whether the runs so far already rule out beating `baselineMedianMs`: the baseline wins ties,
 * so a run no faster than its median counts against the challenger, and a median of `runs`
 * needs more than half of them faster.
 */
export function cannotWin(
  runsMs: readonly number[],
  baselineMedianMs: number,
  runs: number,
): boolean {
  const slow = runsMs.filter((ms) => ms >= baselineMedianMs).length
  return slow > runs - (Math.floor(runs / 2) + 1)
}

/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

interface Timed<P> {
  entry: DeviceTrialEntry
  loaded?: P
  computeMs: number
}

/** Times `candidates` in order under `rule` and keeps the fastest loaded; releases the rest. */
export async function runDeviceTrial<P>(
  candidates: readonly TrialCandidate<P>[],
  rule: TrialRule = DEFAULT_TRIAL_RULE,
  clock: () => number = () => performance.now(),
): Promise<TrialOutcome<P>> {
  const started = clock()
  const entries: DeviceTrialEntry[] = []
  let best: (Timed<P> & { candidate: TrialCandidate<P> }) | undefined
  let budgetMs: number | undefined
  let budgeted = false
  for (const candidate of candidates) {
    // The first candidate to finish its runs is the baseline; the rest race its budget.
    budgeted ||= budgetMs !== undefined
    const deadline = budgetMs === undefined ? Number.POSITIVE_INFINITY : clock() + budgetMs
    const timed = await timeCandidate(candidate, rule, clock, deadline, best?.entry.medianMs)
    entries.push(timed.entry)
    if (timed.loaded === undefined) continue
    if (!best) {
      best = { ...timed, candidate }
      budgetMs = trialBudgetMs(timed.computeMs, rule)
    } else if (timed.entry.medianMs! < best.entry.medianMs!) {
      await release(best.candidate, best.loaded!)
      best = { ...timed, candidate }
    } else {
      await release(candidate, timed.loaded)
    }
  }
  const stats: DeviceTrialStats = { totalMs: clock() - started, entries }
  if (budgeted) stats.budgetMs = budgetMs
  return best
    ? { winner: { device: best.candidate.device, loaded: best.loaded! }, stats }
    : { stats }
}

const OVER = Symbol('over budget')

/** `work`, or {@link OVER} once `deadline` passes first (or passed while `work` held the thread). */
async function within<T>(
  work: Promise<T>,
  deadline: number,
  clock: () => number,
): Promise<T | typeof OVER> {
  if (deadline === Number.POSITIVE_INFINITY) return work
  let timer: ReturnType<typeof setTimeout> | undefined
  const over = new Promise<typeof OVER>((resolve) => {
    timer = setTimeout(() => resolve(OVER), Math.max(0, deadline - clock()))
  })
  try {
    const result = await Promise.race([work, over])
    return clock() > deadline ? OVER : result
  } finally {
    clearTimeout(timer)
  }
}

/** Loads one candidate, warms it up and times its runs, stopping early under the rule. */
async function timeCandidate<P>(
  candidate: TrialCandidate<P>,
  rule: TrialRule,
  clock: () => number,
  deadline: number,
  baselineMedianMs: number | undefined,
): Promise<Timed<P>> {
  const entry: DeviceTrialEntry = { device: candidate.device, runsMs: [] }
  const opened = clock()
  const opening = candidate.open()
  let loaded: P | undefined
  // Work left behind by a cut still holds a session: released once it settles.
  let pending: Promise<unknown> = opening
  try {
    const result = await within(opening, deadline, clock)
    if (result === OVER)
      return cut(
        entry,
        'budget',
        opening.then((p) => release(candidate, p)),
      )
    loaded = result
    entry.loadMs = clock() - opened
    const computing = clock()
    for (let i = 0; i <= rule.runs; i++) {
      const ran = clock()
      pending = candidate.run(loaded)
      if ((await within(pending, deadline, clock)) === OVER) {
        return cut(
          entry,
          'budget',
          settle(pending).then(() => release(candidate, loaded as P)),
        )
      }
      if (i === 0) continue // the warm-up: shader compiles and first-call allocations
      entry.runsMs.push(clock() - ran)
      if (baselineMedianMs !== undefined && cannotWin(entry.runsMs, baselineMedianMs, rule.runs)) {
        return cut(entry, 'cannot-win', release(candidate, loaded))
      }
    }
    entry.medianMs = median(entry.runsMs)
    return { entry, loaded, computeMs: clock() - computing }
  } catch (error) {
    entry.error = errorText(error)
    if (loaded !== undefined) await release(candidate, loaded)
    else void settle(pending)
    return { entry, computeMs: 0 }
  }
}

function cut<P>(
  entry: DeviceTrialEntry,
  why: 'budget' | 'cannot-win',
  cleanup: Promise<unknown>,
): Timed<P> {
  entry.cut = why
  // Not awaited for a budget cut: the point of the cut is not to wait for the slow work.
  void cleanup.catch(() => {})
  return { entry, computeMs: 0 }
}

function settle(work: Promise<unknown>): Promise<void> {
  return work.then(
    () => {},
    () => {},
  )
}

async function release<P>(candidate: TrialCandidate<P>, loaded: P): Promise<void> {
  await candidate.dispose(loaded).catch(() => {})
}

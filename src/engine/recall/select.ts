import type { SelectOptions } from '../../core/options.ts'
import type { RecallHit, SelectHook, SelectionOutcome } from '../../core/types.ts'

/** The hits recall returns and, when a hook ran, how it went. */
export interface Selected {
  hits: RecallHit[]
  /** Present when a `select` hook was given. */
  selection?: SelectionOutcome
}

const TIMED_OUT = Symbol('timeout')

/**
 * The last stage: without a hook, the first `k` hits. With one, the hook sees the top
 * `options.candidates` hits and recall returns the ids it names, in its order, renumbered (the
 * explanation keeps the fused rank too); when the hook fails, times out or names nothing usable,
 * the fused ranking stands.
 */
export async function selectHits(
  hits: RecallHit[],
  query: string,
  o: { k: number; explain: boolean; select?: SelectHook; selectOptions: SelectOptions },
): Promise<Selected> {
  const selected: Selected = { hits: hits.slice(0, o.k) }
  if (!o.select) return selected
  const { selection, chosen } = await runSelect(o.select, query, hits, o.selectOptions)
  selected.selection = selection
  if (chosen) selected.hits = renumber(chosen.slice(0, o.k), o.explain)
  return selected
}

/** Selected hits ranked in the hook's order; the explanation keeps the fused rank too. */
function renumber(chosen: RecallHit[], explained: boolean): RecallHit[] {
  return chosen.map((hit, i) => ({
    ...hit,
    rank: i + 1,
    explanation: explained ? `${hit.explanation}; selected -> #${i + 1}` : '',
  }))
}

/**
 * Shows the hook the top `candidates` hits and keeps the ids it names, in its order: unknown
 * and repeated ids are ignored, at most `keep` are kept. Anything else (a throw, a reply that
 * is not a list of strings, no usable id, no reply within `timeoutMs`) leaves `chosen` unset so
 * the fused ranking stands.
 */
async function runSelect(
  select: SelectHook,
  query: string,
  hits: RecallHit[],
  options: SelectOptions,
): Promise<{ selection: SelectionOutcome; chosen?: RecallHit[] }> {
  const shown = hits.slice(0, options.candidates)
  if (shown.length === 0) return { selection: 'empty' }
  const reply = await askHook(select, query, shown, options.timeoutMs)
  if (reply === TIMED_OUT) return { selection: 'timeout' }
  if (!Array.isArray(reply) || reply.some((id) => typeof id !== 'string')) {
    return { selection: 'failed' }
  }
  const byId = new Map(shown.map((hit) => [hit.id, hit]))
  const chosen: RecallHit[] = []
  for (const id of new Set(reply as string[])) {
    const hit = byId.get(id)
    if (hit) chosen.push(hit)
    if (chosen.length === options.keep) break
  }
  return chosen.length > 0 ? { selection: 'applied', chosen } : { selection: 'empty' }
}

/** The hook's reply, `TIMED_OUT`, or undefined when it threw or rejected. */
async function askHook(
  select: SelectHook,
  query: string,
  shown: RecallHit[],
  timeoutMs: number,
): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
  })
  try {
    // A hook that throws synchronously is a failure like one that rejects.
    const answer = Promise.resolve().then(() => select(query, shown.slice()))
    // A late rejection after a timeout must not surface as an unhandled rejection.
    answer.catch(() => {})
    return await Promise.race([answer, timeout])
  } catch {
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

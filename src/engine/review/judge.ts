import type { JudgeCase, JudgeVerdict, Relation, ReviewReport } from '../../core/types.ts'
import type { CheckedReview } from './options.ts'

/** A decided merge: `from` folds into `into`. */
export interface Merge {
  into: string
  from: string
  similarity: number
}

const TIMED_OUT = Symbol('timeout')

/** The judge's verdicts, or none when there is no judge, it failed or ran out of time. */
export async function judged(
  cases: JudgeCase[],
  checked: CheckedReview,
  report: ReviewReport,
): Promise<(JudgeVerdict | undefined)[]> {
  if (!checked.judge) return []
  report.judge ??= 'applied'
  if (cases.length === 0) return []
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const reply = await Promise.race([
      Promise.resolve(checked.judge(cases)),
      new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), checked.judgeTimeoutMs)
      }),
    ])
    if (reply === TIMED_OUT) {
      report.judge = 'timeout'
      return []
    }
    if (!Array.isArray(reply)) throw new TypeError('expected an array of verdicts')
    const known = new Set<unknown>(['merge', 'supersedes', 'contradicts', 'keep'])
    return reply.map((v) => (known.has(v) ? (v as JudgeVerdict) : undefined))
  } catch {
    report.judge = 'failed'
    return []
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The merges and edges the cases come to: a duplicate merges unless the judge says otherwise, a
 * related pair only does what the judge says. A memory folds into one other at most, and a
 * memory being folded away absorbs nothing.
 */
export function decide(
  cases: JudgeCase[],
  verdicts: (JudgeVerdict | undefined)[],
): { merges: Merge[]; edges: Omit<Relation, 'createdAt'>[] } {
  const merges: Merge[] = []
  const edges: Omit<Relation, 'createdAt'>[] = []
  const absorbed = new Set<string>()
  const absorbing = new Set<string>()
  cases.forEach((c, i) => {
    const verdict = verdicts[i] ?? (c.kind === 'duplicate' ? 'merge' : 'keep')
    if (verdict === 'merge') {
      const { older, newer } = c
      if (absorbed.has(newer.id) || absorbed.has(older.id) || absorbing.has(newer.id)) return
      absorbed.add(newer.id)
      absorbing.add(older.id)
      merges.push({ into: older.id, from: newer.id, similarity: c.similarity })
    } else if (verdict === 'supersedes' || verdict === 'contradicts') {
      edges.push({ from: c.newer.id, to: c.older.id, kind: verdict })
    }
  })
  return { merges, edges: edges.filter((e) => !absorbed.has(e.from) && !absorbed.has(e.to)) }
}

/**
 * Grid search of {@link AdaptivePolicy} on the tuning sets only (LoCoMo conversations 1–3
 * turns and observations, dev-agent, personal-tune), for the n-gram and USE-lite embedders at
 * once: one policy must serve both. The objective is the worst margin of hybrid over the better
 * of keyword-only and semantic-only on hit@1, hit@5 and MRR across every (set, embedder), then
 * the mean MRR. A fast re-implementation of `combine` scores each policy; the winners are
 * re-scored with the real `combine` through the lab.
 *
 *   npx tsx scripts/eval/tune-fusion.ts [--top 10]
 */
import { parseArgs } from 'node:util'
import {
  type AdaptivePolicy,
  adaptiveShares,
  DEFAULT_ADAPTIVE_POLICY,
} from '../../src/core/adaptive-fusion.ts'
import { smoothTies } from '../../src/core/fusion.ts'
import { recallLists, scoreFusion } from './fusion-score.ts'
import { adaptiveFusion, evidenceOf, labCalibration, MODEL_OF } from './fusions.ts'
import { LAB_SETS, labSet } from './lab-data.ts'
import type { CollectedSet } from './lists.ts'

export interface Prepared {
  evidence: ReturnType<typeof evidenceOf>
  /** Per candidate: keyword normal, cosine, tag normal, list count, relevant. */
  kn: Float64Array
  cos: Float64Array
  tn: Float64Array
  lists: Int8Array
  /** Best position in any list (combine's second tie-break). */
  bestRank: Float64Array
  inKeyword: Uint8Array
  inVector: Uint8Array
  inTag: Uint8Array
  /** Position in id order (the last tie-break). */
  idOrder: Int32Array
  relevant: Uint8Array
  top: number
}

/** Each question's candidates in arrays, for {@link evaluate}. */
export function prepare(collected: CollectedSet): Prepared[] {
  const out: Prepared[] = []
  for (const store of collected.stores) {
    for (const q of store.questions) {
      if (collected.apart.includes(q.kind)) continue
      const l = recallLists(q)
      const ids = [...new Set([...l.keyword, ...l.vector, ...l.tag].map((i) => i.id))]
      const at = new Map(ids.map((id, i) => [id, i]))
      const n = ids.length
      const kn = new Float64Array(n)
      const cos = new Float64Array(n)
      const tn = new Float64Array(n)
      const lists = new Int8Array(n)
      const bestRank = new Float64Array(n).fill(Number.POSITIVE_INFINITY)
      const inKeyword = new Uint8Array(n)
      const inVectorList = new Uint8Array(n)
      const inTag = new Uint8Array(n)
      const sortedIds = [...ids].sort()
      const idOrder = new Int32Array(ids.map((id) => sortedIds.indexOf(id)))
      const relevant = new Uint8Array(n)
      const smoothed = smoothTies(l.keyword, 0.1)
      const kTop = Math.max(0, ...smoothed)
      l.keyword.forEach((item, i) => {
        const j = at.get(item.id)!
        kn[j] = kTop > 0 ? Math.min(1, Math.max(0, smoothed[i]! / kTop)) : 1
        lists[j]!++
        inKeyword[j] = 1
        bestRank[j] = Math.min(bestRank[j]!, i + 1)
      })
      l.vector.forEach((item, i) => {
        const j = at.get(item.id)!
        inVectorList[j] = 1
        bestRank[j] = Math.min(bestRank[j]!, i + 1)
      })
      l.tag.forEach((item, i) => {
        const j = at.get(item.id)!
        inTag[j] = 1
        bestRank[j] = Math.min(bestRank[j]!, i + 1)
      })
      const inVector = new Set(l.vector.map((v) => v.id))
      for (const t of l.tag) {
        const j = at.get(t.id)!
        tn[j] = t.score
        lists[j]!++
      }
      const rel = new Set(q.relevant)
      ids.forEach((id, j) => {
        cos[j] = l.cosine(id) ?? Number.NEGATIVE_INFINITY
        if (inVector.has(id)) lists[j]!++
        relevant[j] = (store.keys[id] ?? []).some((k) => rel.has(k)) ? 1 : 0
      })
      out.push({
        evidence: evidenceOf(q),
        kn,
        cos,
        tn,
        lists,
        bestRank,
        inKeyword,
        inVector: inVectorList,
        inTag,
        idOrder,
        relevant,
        top: l.vector[0]?.score ?? 0,
      })
    }
  }
  return out
}

/** Shares of questions answered at rank 1, in the top 5, and the mean reciprocal rank (to 10). */
export type Triple = { h1: number; h5: number; mrr: number }

/** `combine` re-implemented over {@link prepare}d arrays, scored; `vectorShare` overrides the model's. */
export function evaluate(
  prepared: Prepared[],
  model: string,
  policy: AdaptivePolicy,
  vectorShare?: number,
): Triple {
  const base = labCalibration(model)
  const calibration = vectorShare === undefined ? base : { ...base, vectorShare }
  let h1 = 0
  let h5 = 0
  let mrr = 0
  for (const p of prepared) {
    const d = adaptiveShares(p.evidence, calibration, policy)
    const sk = d.shares.keyword ?? 1
    const sv = d.shares.vector ?? 0
    const floor = d.floors.vector ?? -1
    const span = p.top - floor
    const n = p.kn.length
    const kn = p.kn
    const fused = new Float64Array(n)
    const agreement = new Float64Array(n)
    for (let j = 0; j < n; j++) {
      const v = span > 0 ? Math.min(1, Math.max(0, (p.cos[j]! - floor) / span)) : 1
      const k = sk * kn[j]!
      fused[j] = k + sv * v + p.tn[j]!
      agreement[j] =
        (p.inKeyword[j] ? k : 0) + (p.inVector[j] ? sv * v : 0) + (p.inTag[j] ? p.tn[j]! : 0)
    }
    // combine's order: fused (relative 1e-12), lists, best rank, agreement, id.
    const beats = (a: number, b: number) => {
      const fa = fused[a]!
      const fb = fused[b]!
      if (Math.abs(fa - fb) > 1e-12 * Math.max(fa, fb)) return fa > fb
      if (p.lists[a] !== p.lists[b]) return p.lists[a]! > p.lists[b]!
      if (p.bestRank[a] !== p.bestRank[b]) return p.bestRank[a]! < p.bestRank[b]!
      if (agreement[a] !== agreement[b]) return agreement[a]! > agreement[b]!
      return p.idOrder[a]! < p.idOrder[b]!
    }
    let best = Number.POSITIVE_INFINITY
    for (let j = 0; j < n; j++) {
      if (!p.relevant[j]) continue
      let rank = 1
      for (let k = 0; k < n; k++) if (k !== j && beats(k, j)) rank++
      best = Math.min(best, rank)
    }
    if (best === 1) h1++
    if (best <= 5) h5++
    if (best <= 10) mrr += 1 / best
  }
  const n = prepared.length
  return { h1: h1 / n, h5: h5 / n, mrr: mrr / n }
}

export const VECTOR_SHARES = [0.3, 0.5, 0.7, 1, 1.5, 2, 3]

/** The policies searched (720). */
export function* grid(): Generator<AdaptivePolicy> {
  for (const coverageFloor of [0, 0.2, 0.4])
    for (const peakGap of [0.25, 0.5, 1, 2])
      for (const peakFloor of [0, 0.2, 0.4])
        for (const liftSpreads of [0, 2, 4, 6, 8])
          for (const floorSpreads of [-10, -3, -1, 0])
            yield { coverageFloor, peakGap, peakFloor, liftSpreads, floorSpreads }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { top: { type: 'string', default: '10' } } })
  const sets = LAB_SETS.filter((s) => s.role === 'tune')
  const cases: { label: string; model: string; prepared: Prepared[]; bar: Triple }[] = []
  for (const embedder of ['ngram', 'use']) {
    for (const set of sets) {
      const collected = await labSet(set, embedder)
      const kw = scoreFusion((q) => q.engine.keyword, collected, embedder).overall
      const sem = scoreFusion((q) => q.engine.semantic, collected, embedder).overall
      cases.push({
        label: `${set.id}/${embedder}`,
        model: MODEL_OF[embedder]!,
        prepared: prepare(collected),
        bar: {
          h1: Math.max(kw['hit@1'], sem['hit@1']),
          h5: Math.max(kw['hit@5'], sem['hit@5']),
          mrr: Math.max(kw.mrr, sem.mrr),
        },
      })
    }
  }
  const check = cases.map((c) => evaluate(c.prepared, c.model, DEFAULT_ADAPTIVE_POLICY))
  process.stderr.write(
    `default policy (fast scorer): ${check.map((t, i) => `${cases[i]!.label} ${t.h1.toFixed(3)}/${t.h5.toFixed(3)}/${t.mrr.toFixed(3)}`).join('  ')}\n`,
  )
  const results: {
    policy: AdaptivePolicy
    shares: Record<string, number>
    worst: number
    meanMrr: number
    margins: number[]
  }[] = []
  const models = [...new Set(cases.map((c) => c.model))]
  for (const policy of grid()) {
    // The vector share belongs to the model: the best one for each model under this policy.
    const margins: number[] = []
    const shares: Record<string, number> = {}
    let mrr = 0
    for (const model of models) {
      let best: { share: number; worst: number; mrr: number; margins: number[] } | undefined
      for (const share of VECTOR_SHARES) {
        const ms: number[] = []
        let m = 0
        for (const c of cases.filter((c) => c.model === model)) {
          const t = evaluate(c.prepared, c.model, policy, share)
          ms.push(t.h1 - c.bar.h1, t.h5 - c.bar.h5, t.mrr - c.bar.mrr)
          m += t.mrr
        }
        const worst = Math.min(...ms)
        if (
          !best ||
          worst > best.worst + 1e-9 ||
          (Math.abs(worst - best.worst) < 1e-9 && m > best.mrr)
        ) {
          best = { share, worst, mrr: m, margins: ms }
        }
      }
      shares[model] = best!.share
      margins.push(...best!.margins)
      mrr += best!.mrr
    }
    results.push({
      policy,
      shares,
      worst: Math.min(...margins),
      meanMrr: mrr / cases.length,
      margins,
    })
  }
  results.sort((a, b) => b.worst - a.worst || b.meanMrr - a.meanMrr)
  for (const r of results.slice(0, Number(values.top))) {
    process.stdout.write(
      `worst ${r.worst.toFixed(3)} meanMRR ${r.meanMrr.toFixed(4)} ${JSON.stringify(r.policy)} ${JSON.stringify(r.shares)}\n    ${cases
        .map(
          (c, i) =>
            `${c.label} ${r.margins
              .slice(3 * i, 3 * i + 3)
              .map((m) => (m >= 0 ? '+' : '') + m.toFixed(3))
              .join(' ')}`,
        )
        .join(' | ')}\n`,
    )
  }
  const best = results[0]!
  process.stdout.write(`\nbest, re-scored with combine:\n`)
  for (const embedder of ['ngram', 'use']) {
    for (const set of sets) {
      const share = best.shares[MODEL_OF[embedder]!]!
      const r = scoreFusion(
        adaptiveFusion(best.policy, { [MODEL_OF[embedder]!]: share }),
        await labSet(set, embedder),
        embedder,
      ).overall
      process.stdout.write(
        `  ${`${set.id}/${embedder}`.padEnd(22)} ${r['hit@1'].toFixed(3)}/${r['hit@5'].toFixed(3)}/${r.mrr.toFixed(3)}\n`,
      )
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
    process.exit(1)
  })
}

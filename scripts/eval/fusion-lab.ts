/**
 * Fusion lab: scores fusion functions offline on the lists recall would fuse, over the tuning
 * sets (and, with `--holdout`, the held-out ones), for the n-gram and USE-lite embedders.
 *
 *   npx tsx scripts/eval/fusion-lab.ts [--holdout] [--embedders ngram,use] [--json]
 */
import { parseArgs } from 'node:util'
import {
  combine,
  type FusedCandidate,
  type RankedItem,
  type RankedList,
} from '../../src/core/fusion.ts'
import { LAB_SETS, labSet } from './lab-data.ts'
import type { QueryLists, StoreLists } from './lists.ts'
import { type Metrics, mean, scoreQuestion } from './metrics.ts'

/** A fusion under test: the ranked memory ids (best first) for one question. */
export type Fusion = (q: QueryLists, store: StoreLists, embedder: string) => string[]

const CANDIDATES = 30
const COSINE_DEPTH = 4 * CANDIDATES

/** The lists as recall hands them to fusion: keyword, vector (top 30), tag (cut as recall cuts it). */
export function recallLists(q: QueryLists): {
  keyword: RankedItem[]
  vector: RankedItem[]
  tag: RankedItem[]
  cosine: (id: string) => number | undefined
} {
  const keyword = q.keyword.map((h) => ({
    id: h.id,
    score: h.score,
    tieGroup: [...h.terms].sort().join(' '),
  }))
  const vector = q.cosines.slice(0, CANDIDATES)
  const found = new Set([...keyword, ...vector].map((i) => i.id))
  const tag = q.tags.length > CANDIDATES ? q.tags.filter((t) => found.has(t.id)) : q.tags
  const deep = new Map(q.cosines.slice(0, COSINE_DEPTH).map((c) => [c.id, c.score]))
  const bound = q.cosines.length >= COSINE_DEPTH ? q.cosines[COSINE_DEPTH - 1]!.score : undefined
  return { keyword, vector, tag, cosine: (id) => deep.get(id) ?? bound }
}

const ids = (fused: FusedCandidate[]) => fused.map((c) => c.id)

export const BASE_FUSIONS: Record<string, Fusion> = {
  'engine keyword': (q) => q.engine.keyword,
  'engine semantic': (q) => q.engine.semantic,
  'engine hybrid': (q) => q.engine.hybrid,
  'offline default': (q) => {
    const l = recallLists(q)
    const lists: RankedList[] = [
      { name: 'keyword', items: l.keyword },
      { name: 'vector', items: l.vector },
      { name: 'tag', items: l.tag },
    ]
    return ids(combine(lists, { outside: { vector: l.cosine } }))
  },
}

export interface SetScore {
  set: string
  role: string
  n: number
  overall: Metrics
  byKind: Record<string, { n: number; metrics: Metrics }>
}

export function scoreFusion(
  fusion: Fusion,
  collected: { stores: StoreLists[]; apart: string[] },
  embedder: string,
): {
  overall: Metrics
  n: number
  byKind: Record<string, { n: number; metrics: Metrics }>
  perQuery: Metrics[]
} {
  const rows: { kind: string; m: Metrics }[] = []
  for (const store of collected.stores) {
    for (const q of store.questions) {
      const ranked = fusion(q, store, embedder).slice(0, 10)
      rows.push({
        kind: q.kind,
        m: scoreQuestion(
          ranked.map((id) => store.keys[id] ?? []),
          new Set(q.relevant),
        ),
      })
    }
  }
  const counted = rows.filter((r) => !collected.apart.includes(r.kind))
  const kinds = [...new Set(rows.map((r) => r.kind))].sort()
  return {
    overall: mean(counted.map((r) => r.m)),
    n: counted.length,
    byKind: Object.fromEntries(
      kinds.map((k) => {
        const ms = rows.filter((r) => r.kind === k).map((r) => r.m)
        return [k, { n: ms.length, metrics: mean(ms) }]
      }),
    ),
    perQuery: counted.map((r) => r.m),
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      holdout: { type: 'boolean', default: false },
      embedders: { type: 'string', default: 'ngram,use' },
      fusions: { type: 'string' },
    },
  })
  const log = (line: string) => process.stderr.write(`${line}\n`)
  const sets = LAB_SETS.filter((s) => values.holdout || s.role === 'tune')
  const { FUSIONS } = await import('./fusions.ts')
  const all = { ...BASE_FUSIONS, ...FUSIONS }
  const chosen = values.fusions ? values.fusions.split(',') : Object.keys(all)
  for (const embedder of values.embedders.split(',')) {
    const out: string[] = [`\n## ${embedder}: hit@1 / hit@5 / MRR`]
    out.push(['fusion'.padEnd(28), ...sets.map((s) => s.id.padEnd(20))].join(''))
    const collected = await Promise.all(sets.map((s) => labSet(s, embedder, log)))
    for (const name of chosen) {
      const cells = collected.map((c) => {
        const r = scoreFusion(all[name]!, c, embedder).overall
        return `${r['hit@1'].toFixed(3)}/${r['hit@5'].toFixed(3)}/${r.mrr.toFixed(3)}`.padEnd(20)
      })
      out.push([name.padEnd(28), ...cells].join(''))
    }
    process.stdout.write(`${out.join('\n')}\n`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
    process.exit(1)
  })
}

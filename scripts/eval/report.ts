/**
 * The tables of docs/quality.md (issue 13): per embedder and set, keyword, semantic, the
 * engine's hybrid (score fusion, vector share 0.4) and hybrid RRF, then adaptive fusion
 * (src/core/adaptive-fusion.ts) and adaptive fusion with the relevance floor, offline on the
 * same lists; the margin of adaptive over max(keyword, semantic); rank-1 counts of relation
 * questions; and what the floor leaves of off-topic queries.
 *
 *   npx tsx scripts/eval/report.ts --role tune      # tuning sets only
 *   npx tsx scripts/eval/report.ts --role holdout   # held-out sets and the templated check
 */
import { parseArgs } from 'node:util'
import { DEFAULT_FLOOR_POLICY } from '../../src/core/recall/floor.ts'
import { nonsenseOutcome, realOutcome } from './floor-lab.ts'
import { scoreFusion } from './fusion-score.ts'
import { adaptiveFusion } from './fusions.ts'
import { LAB_SETS, labSet, nonsenseSet } from './lab-data.ts'
import type { CollectedSet } from './lists.ts'
import type { Metrics } from './metrics.ts'

const cell = (m: Metrics) =>
  `${m['hit@1'].toFixed(3)} / ${m['hit@5'].toFixed(3)} / ${m.mrr.toFixed(3)}`
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`

function kindHit1(
  c: CollectedSet,
  embedder: string,
  kind: string,
  fusion: Parameters<typeof scoreFusion>[0],
) {
  const r = scoreFusion(fusion, c, embedder).byKind[kind]
  return r ? { n: r.n, hits: Math.round(r.metrics['hit@1'] * r.n) } : undefined
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { role: { type: 'string', default: 'tune' } } })
  const role = values.role === 'holdout' ? 'holdout' : 'tune'
  const sets = LAB_SETS.filter((s) => (role === 'tune' ? s.role === 'tune' : s.role !== 'tune'))
  const out: string[] = []
  for (const embedder of ['ngram', 'use']) {
    out.push(
      '',
      `### ${role === 'tune' ? 'Tuning' : 'Held-out'} sets, ${embedder === 'use' ? 'USE-lite' : 'n-gram'} embedder — hit@1 / hit@5 / MRR`,
      '',
      '| set | n | keyword | semantic | hybrid (score 0.4) | hybrid RRF | **adaptive** | adaptive + floor | adaptive − max(kw, sem) |',
      '| --- | --: | --- | --- | --- | --- | --- | --- | --- |',
    )
    const relation: string[] = []
    for (const set of sets) {
      const c = await labSet(set, embedder)
      const kw = scoreFusion((q) => q.engine.keyword, c, embedder)
      const sem = scoreFusion((q) => q.engine.semantic, c, embedder).overall
      const hyb = scoreFusion((q) => q.engine.hybrid, c, embedder).overall
      const rrf = scoreFusion((q) => q.engine.rrf, c, embedder).overall
      const ada = scoreFusion(adaptiveFusion(), c, embedder).overall
      const floored = realOutcome(c, embedder, DEFAULT_FLOOR_POLICY).metrics
      const k = kw.overall
      const margin = (['hit@1', 'hit@5', 'mrr'] as const)
        .map((m) => signed(ada[m] - Math.max(k[m], sem[m])))
        .join(' / ')
      out.push(
        `| ${set.id} | ${kw.n} | ${cell(k)} | ${cell(sem)} | ${cell(hyb)} | ${cell(rrf)} | **${cell(ada)}** | ${cell(floored)} | ${margin} |`,
      )
      const vec = kindHit1(c, embedder, 'relation', (q) => q.engine.semantic)
      const adaRel = kindHit1(c, embedder, 'relation', adaptiveFusion())
      const hybRel = kindHit1(c, embedder, 'relation', (q) => q.engine.hybrid)
      if (vec && adaRel && hybRel) {
        relation.push(
          `${set.id} ${vec.n} relation questions at rank 1: semantic ${vec.hits}, hybrid (score 0.4) ${hybRel.hits}, adaptive ${adaRel.hits}`,
        )
      }
    }
    out.push('', ...relation.map((line) => `- ${line}`))
    const bases = LAB_SETS.filter(
      (s) =>
        ['dev-agent', 'personal-tune', 'personal-holdout'].includes(s.id) &&
        (role === 'holdout' || s.role === 'tune'),
    )
    for (const base of bases) {
      const n = await nonsenseSet(base, role, embedder)
      const before = nonsenseOutcome(n, embedder, null)
      const after = nonsenseOutcome(n, embedder, DEFAULT_FLOOR_POLICY)
      out.push(
        `- off-topic queries (${role} half, ${after.queries}) against ${base.id}: top-5 hits kept ${before.keptPerQuery.toFixed(2)} → ${after.keptPerQuery.toFixed(2)} per query; left with no hit ${(100 * after.empty).toFixed(0)} %`,
      )
    }
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})

/**
 * Near-duplicate threshold with a real model (issue 13 §5): cosines of paraphrase pairs (one
 * fact, two wordings: should merge) and same-template pairs (two facts, one template: must not)
 * from `data/near-dup-pairs.json`, and of each LoCoMo turn's nearest neighbour in its
 * conversation; percentiles, how many pairs cross each threshold, and how many the text guard
 * (src/core/near-duplicate.ts) still lets through.
 *
 *   npx tsx scripts/eval/near-dup.ts [--embedder use|ngram] [--show 12]
 */
import { existsSync, readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { mayMerge } from '../../src/core/near-duplicate.ts'
import { distribution } from './calibrate.ts'
import { loadDataset } from './datasets.ts'
import { makeEmbedder } from './embedders.ts'

const PAIRS = 'scripts/eval/data/near-dup-pairs.json'
const LOCOMO = '../shared/eval/locomo/locomo-dev.json'
const THRESHOLDS = [0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99]

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

interface Pair {
  a: string
  b: string
  cosine: number
  guard: boolean
}

const pct = (values: number[]) => {
  const d = distribution(values)
  return `p01 ${d.p.p01.toFixed(3)} p05 ${d.p.p05.toFixed(3)} p25 ${d.p.p25.toFixed(3)} p50 ${d.p.p50.toFixed(3)} p75 ${d.p.p75.toFixed(3)} p95 ${d.p.p95.toFixed(3)} p99 ${d.p.p99.toFixed(3)} max ${Math.max(...values).toFixed(3)}`
}

function crossing(pairs: readonly Pair[]): string {
  return THRESHOLDS.map((t) => {
    const over = pairs.filter((p) => p.cosine >= t)
    return `≥${t}: ${over.length}/${over.filter((p) => p.guard).length}`
  }).join('  ')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      embedder: { type: 'string', default: 'use' },
      show: { type: 'string', default: '12' },
    },
  })
  const embedder = await makeEmbedder(values.embedder)
  await embedder.load()
  const data = JSON.parse(readFileSync(PAIRS, 'utf8')) as {
    paraphrase: [string, string][]
    sameTemplate: [string, string][]
  }
  const score = async (list: [string, string][]): Promise<Pair[]> => {
    const vectors = await embedder.embed(list.flat(), { kind: 'passage' })
    return list.map(([a, b], i) => ({
      a,
      b,
      cosine: dot(vectors[2 * i]!, vectors[2 * i + 1]!),
      guard: mayMerge(a, b),
    }))
  }
  const out: string[] = [`# ${embedder.model}`, '']
  for (const [name, list] of [
    ['paraphrase (should merge)', data.paraphrase],
    ['same template (must not)', data.sameTemplate],
  ] as const) {
    const pairs = await score(list as [string, string][])
    out.push(
      `${name}, ${pairs.length} pairs: ${pct(pairs.map((p) => p.cosine))}`,
      `  crossing (pairs / of them passing the guard): ${crossing(pairs)}`,
      `  guard vetoes ${pairs.filter((p) => !p.guard).length} of ${pairs.length}`,
    )
    for (const p of [...pairs].sort((x, y) => y.cosine - x.cosine).slice(0, Number(values.show))) {
      out.push(`    ${p.cosine.toFixed(3)} ${p.guard ? 'merge' : 'veto '} ${p.a} | ${p.b}`)
    }
    out.push('')
  }
  if (existsSync(LOCOMO)) {
    const set = loadDataset(LOCOMO, 'turns')
    const nearest: Pair[] = []
    for (const store of set.stores) {
      const texts = [...new Set(store.items.map((i) => i.text))]
      const vectors = await embedder.embed(texts, { kind: 'passage' })
      for (let i = 0; i < texts.length; i++) {
        let best = -2
        let at = -1
        for (let j = 0; j < texts.length; j++) {
          if (j === i) continue
          const c = dot(vectors[i]!, vectors[j]!)
          if (c > best) {
            best = c
            at = j
          }
        }
        // Each pair once: from its earlier member.
        if (at > i || dot(vectors[at]!, vectors[i]!) < best) {
          nearest.push({
            a: texts[i]!,
            b: texts[at]!,
            cosine: best,
            guard: mayMerge(texts[i]!, texts[at]!),
          })
        }
      }
    }
    out.push(
      `LoCoMo turns (5 conversations), each turn's nearest neighbour, ${nearest.length} pairs: ${pct(nearest.map((p) => p.cosine))}`,
      `  crossing (pairs / of them passing the guard): ${crossing(nearest)}`,
    )
    for (const p of [...nearest]
      .sort((x, y) => y.cosine - x.cosine)
      .slice(0, Number(values.show))) {
      out.push(
        `    ${p.cosine.toFixed(3)} ${p.guard ? 'merge' : 'veto '} ${p.a.slice(0, 70)} | ${p.b.slice(0, 70)}`,
      )
    }
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})

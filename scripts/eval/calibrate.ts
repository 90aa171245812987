/**
 * Calibrates a model's "unrelated" cosine: how similar two texts about different things look
 * to it. Draws texts from a corpus of short first-person facts (MSC persona facts in
 * `../shared/eval/msc`, else this folder's personal sets), embeds them, and reports the cosine
 * distribution of random pairs and of the dev queries against random facts. The mean and spread
 * become `ModelCalibration.unrelated`, kept with the model (src/embedder/model-table.ts).
 *
 *   npx tsx scripts/eval/calibrate.ts --embedder use [--texts 1500] [--pairs 20000] [--json]
 */
import { existsSync, readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { hashSeed, uniform } from '../models/rng.ts'
import { makeEmbedder } from './embedders.ts'

export interface Distribution {
  n: number
  mean: number
  sd: number
  p: Record<'p01' | 'p05' | 'p25' | 'p50' | 'p75' | 'p95' | 'p99', number>
}

/** Mean, standard deviation and percentiles (nearest rank) of `values`. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  const mean = sorted.reduce((s, x) => s + x, 0) / n
  const sd = Math.sqrt(sorted.reduce((s, x) => s + (x - mean) ** 2, 0) / n)
  const at = (q: number) => sorted[Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))))]!
  return {
    n,
    mean,
    sd,
    p: {
      p01: at(0.01),
      p05: at(0.05),
      p25: at(0.25),
      p50: at(0.5),
      p75: at(0.75),
      p95: at(0.95),
      p99: at(0.99),
    },
  }
}

const MSC = '../shared/eval/msc/msc_personas_all.json'

function corpus(): { name: string; texts: string[] } {
  if (existsSync(MSC)) {
    const raw = JSON.parse(readFileSync(MSC, 'utf8')) as Record<string, Record<string, unknown>[]>
    const texts = new Set<string>()
    for (const persona of raw.valid ?? []) {
      for (const facts of Object.values(persona)) {
        if (Array.isArray(facts)) for (const f of facts) if (typeof f === 'string') texts.add(f)
      }
    }
    return { name: 'MSC persona facts (valid split)', texts: [...texts] }
  }
  const texts = ['personal-tune', 'personal-holdout'].flatMap((name) => {
    const file = JSON.parse(readFileSync(`scripts/eval/data/${name}.json`, 'utf8'))
    return (file.memories as { text: string }[]).map((m) => m.text)
  })
  return { name: 'personal-tune + personal-holdout memories', texts }
}

function queries(): string[] {
  const files = ['scripts/eval/data/personal-tune.json', '../shared/eval/dev-agent.json']
  return files
    .filter((f) => existsSync(f))
    .flatMap((f) =>
      (JSON.parse(readFileSync(f, 'utf8')).queries as { q: string }[]).map((q) => q.q),
    )
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      embedder: { type: 'string', default: 'use' },
      texts: { type: 'string', default: '1500' },
      pairs: { type: 'string', default: '20000' },
      json: { type: 'boolean', default: false },
    },
  })
  const random = uniform(hashSeed('calibrate'))
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const source = corpus()
  const pool = [...source.texts]
  // A seeded partial shuffle: the same sample every run.
  const count = Math.min(Number(values.texts), pool.length)
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i))
    ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
  }
  const texts = pool.slice(0, count)
  const embedder = await makeEmbedder(values.embedder)
  await embedder.load()
  const vectors = await embedder.embed(texts, { kind: 'passage' })
  const pairs: number[] = []
  for (let k = 0; k < Number(values.pairs); k++) {
    const i = Math.floor(random() * count)
    let j = Math.floor(random() * (count - 1))
    if (j >= i) j++
    pairs.push(dot(vectors[i]!, vectors[j]!))
  }
  const qs = queries()
  const qVectors = await embedder.embed(qs, { kind: 'query' })
  const queryPairs: number[] = []
  for (const q of qVectors) for (let k = 0; k < 200; k++) queryPairs.push(dot(q, pick(vectors)))
  const report = {
    model: embedder.model,
    corpus: source.name,
    texts: count,
    pairs: distribution(pairs),
    queryVsRandom: distribution(queryPairs),
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`)
  else {
    const row = (name: string, d: Distribution) =>
      `${name.padEnd(18)} n ${String(d.n).padEnd(7)} mean ${d.mean.toFixed(3)} sd ${d.sd.toFixed(3)}  ${Object.entries(
        d.p,
      )
        .map(([k, v]) => `${k} ${v.toFixed(3)}`)
        .join('  ')}`
    process.stdout.write(
      `${report.model} · ${report.corpus} · ${count} texts\n${row('random pairs', report.pairs)}\n${row('query vs random', report.queryVsRandom)}\n`,
    )
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
    process.exit(1)
  })
}

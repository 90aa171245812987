/**
 * The seeded vector sets of the vector benchmarks (`vector.ts`, `vector-binary.ts`), 384 dims,
 * unit length; see `vector.ts` for what each stands for. `real` is MSC persona facts then
 * LoCoMo turns from `../shared/eval` through the n-gram test embedder (queries: every 97th
 * text, reworded by dropping its first word), empty where `../shared` is absent.
 */
import { existsSync, readFileSync } from 'node:fs'
import { TopK } from '../../src/core/top-k.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { normal, uniform } from '../models/rng.ts'

export const DIMS = 384
export const SEED = 0x5eed

export type SetName = 'random' | 'clustered' | 'ngram' | 'real' | 'million'

export interface Data {
  vectors: Float32Array[]
  queries: Float32Array[]
}

export function normalise(v: Float32Array): Float32Array {
  let norm = 0
  for (let i = 0; i < v.length; i++) norm += (v[i] as number) ** 2
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv
  return v
}

function gaussianUnit(seed: number): Float32Array {
  return normalise(normal(seed, DIMS, 1))
}

function randomSet(n: number, queries: number): Data {
  return {
    vectors: Array.from({ length: n }, (_, i) => gaussianUnit(SEED + i)),
    queries: Array.from({ length: queries }, (_, i) => gaussianUnit(SEED - 1 - i)),
  }
}

function clusteredSet(n: number, queries: number): Data {
  const next = uniform(SEED)
  const dimScale = normal(SEED + 1, DIMS, 0.5).map(Math.exp)
  const mean = gaussianUnit(SEED + 2)
  const centres = Array.from({ length: Math.max(10, Math.round(n / 100)) }, (_, c) =>
    gaussianUnit(SEED + 1000 + c),
  )
  const draw = (seed: number) => {
    const centre = centres[Math.floor(next() * centres.length)] as Float32Array
    const noise = gaussianUnit(seed)
    const v = new Float32Array(DIMS)
    for (let i = 0; i < DIMS; i++) {
      v[i] = ((0.8 * (mean[i] as number) + (centre[i] as number) + 0.7 * (noise[i] as number)) *
        (dimScale[i] as number)) as number
    }
    return normalise(v)
  }
  return {
    vectors: Array.from({ length: n }, (_, i) => draw(SEED + 10_000_000 + i)),
    queries: Array.from({ length: queries }, (_, i) => draw(SEED - 10_000_000 - i)),
  }
}

function ngramSet(n: number, queries: number): Data {
  const next = uniform(SEED)
  const syllables = ['ka', 'lo', 'mi', 'ne', 'sul', 'tor', 'ash', 'ven', 'ri', 'po', 'gre', 'dan']
  const vocabulary = Array.from({ length: 5000 }, () => {
    let word = ''
    const parts = 1 + Math.floor(next() * 3)
    for (let p = 0; p < parts; p++) word += syllables[Math.floor(next() * syllables.length)]
    return word
  })
  // Zipf: word r drawn with weight 1 / (r + 1).
  const cumulative: number[] = []
  let total = 0
  for (let r = 0; r < vocabulary.length; r++) {
    total += 1 / (r + 1)
    cumulative.push(total)
  }
  const word = () => {
    const x = next() * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((cumulative[mid] as number) < x) lo = mid + 1
      else hi = mid
    }
    return vocabulary[lo] as string
  }
  const sentence = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, word).join(' ')
  const embedder = new NgramEmbedder({ dims: DIMS })
  return {
    vectors: Array.from({ length: n }, () => embedder.embedOne(sentence(4, 14))),
    queries: Array.from({ length: queries }, () => embedder.embedOne(sentence(3, 8))),
  }
}

export const SETS: Record<SetName, (n: number, queries: number) => Data> = {
  random: randomSet,
  clustered: clusteredSet,
  ngram: ngramSet,
  real: realSet,
  million: millionSet,
}

/**
 * `clustered`'s shape (shared mean, n / 100 centres, log-normal per-dimension scales) with noise
 * from sums of three uniforms instead of Gaussians, cheap enough to draw a million vectors.
 */
function millionSet(n: number, queries: number): Data {
  const next = uniform(SEED + 3)
  const dimScale = normal(SEED + 1, DIMS, 0.5).map(Math.exp)
  const mean = gaussianUnit(SEED + 2)
  const centres = Array.from({ length: Math.max(10, Math.round(n / 100)) }, (_, c) =>
    gaussianUnit(SEED + 1000 + c),
  )
  const draw = () => {
    const centre = centres[Math.floor(next() * centres.length)] as Float32Array
    const v = new Float32Array(DIMS)
    for (let i = 0; i < DIMS; i++) {
      const noise = (next() + next() + next() - 1.5) * 0.102
      v[i] =
        (0.8 * (mean[i] as number) + (centre[i] as number) + 0.7 * noise) * (dimScale[i] as number)
    }
    return normalise(v)
  }
  return {
    vectors: Array.from({ length: n }, draw),
    queries: Array.from({ length: queries }, draw),
  }
}

/** MSC persona facts (every split, distinct), then LoCoMo turns, the first `limit` of them. */
export function realTexts(limit: number): string[] {
  const texts = new Set<string>()
  const msc = '../shared/eval/msc/msc_personas_all.json'
  if (existsSync(msc)) {
    const raw = JSON.parse(readFileSync(msc, 'utf8')) as Record<string, Record<string, unknown>[]>
    for (const split of Object.values(raw)) {
      for (const persona of split) {
        for (const facts of Object.values(persona)) {
          if (Array.isArray(facts)) for (const f of facts) if (typeof f === 'string') texts.add(f)
        }
      }
    }
  }
  const locomo = '../shared/eval/locomo/locomo-dev.json'
  if (existsSync(locomo)) {
    const raw = JSON.parse(readFileSync(locomo, 'utf8')) as {
      conversation: Record<string, unknown>
    }[]
    for (const sample of raw) {
      for (const turns of Object.values(sample.conversation)) {
        if (!Array.isArray(turns)) continue
        for (const t of turns as { text?: string }[]) if (t.text) texts.add(t.text)
      }
    }
  }
  return [...texts].slice(0, limit)
}

/** The corpus, every text but each 97th stored; those (less their first word) are the queries. */
function realSet(n: number, queries: number): Data {
  const embedder = new NgramEmbedder({ dims: DIMS })
  const texts = realTexts(n + Math.ceil(n / 96))
  const stored: string[] = []
  const asked: string[] = []
  texts.forEach((t, i) => {
    if (i % 97 === 96 && asked.length < queries) asked.push(t.split(' ').slice(1).join(' ') || t)
    else if (stored.length < n) stored.push(t)
  })
  return {
    vectors: stored.map((t) => embedder.embedOne(t)),
    queries: asked.map((t) => embedder.embedOne(t)),
  }
}

/** Brute-force top-k: float64 sums of float32 products, ties to the lower row. */
export function exactTop(
  query: Float32Array,
  vectors: readonly Float32Array[],
  k: number,
): number[] {
  const top = new TopK(k)
  for (let r = 0; r < vectors.length; r++) {
    const v = vectors[r] as Float32Array
    let s = 0
    for (let i = 0; i < DIMS; i++) s += (query[i] as number) * (v[i] as number)
    top.push(r, s)
  }
  return top.drain().map((e) => e.index)
}

/**
 * The benchmark corpus and queries, read from `../shared/eval` at run time (never copied into the
 * repository).
 *
 * Memories: the unique MSC persona facts (about 31k after exact dedup of the 65k listed) and the
 * 2,760 LoCoMo dialogue turns (`Speaker: text`), shuffled with a fixed seed; 1k and 10k take the
 * first n. Past the ~33.7k real texts, each further memory joins two persona facts drawn with
 * the same seed into one ("I am vegan. I play collegiate basketball."), the shape of a memory
 * an assistant merges from one conversation; every text stays unique after Engram's dedup key.
 *
 * Queries: the LoCoMo questions (all categories), shuffled with a fixed seed; real questions
 * with their stop words, names and dates, as an assistant would ask them.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dedupKey } from '../../src/core/text.ts'
import { uniform } from '../models/rng.ts'

/** Mulberry32, seeded: the same stream on every run, so a run can be replayed by its seed. */
export const seeded = uniform

export const EVAL_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'eval')
const SEED = 0x5eed

export interface Corpus {
  /** `size` unique memory texts; index = document id. */
  texts: string[]
  /** Query texts. */
  queries: string[]
  /** How the texts were made, for the report. */
  provenance: { msc: number; locomo: number; combined: number }
}

function shuffle<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    const t = items[i] as T
    items[i] = items[j] as T
    items[j] = t
  }
  return items
}

interface LocomoSample {
  conversation: Record<string, unknown>
  qa: { question: string }[]
}

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch (error) {
    throw new Error(`cannot read ${path} (the evaluation data lives in ../shared/eval): ${error}`)
  }
}

function mscFacts(): string[] {
  const raw = readJson<Record<string, Record<string, unknown>[]>>(
    join(EVAL_DIR, 'msc', 'msc_personas_all.json'),
  )
  const facts: string[] = []
  for (const split of Object.values(raw)) {
    for (const dialog of split) {
      for (const list of Object.values(dialog)) {
        if (Array.isArray(list)) for (const f of list) if (typeof f === 'string') facts.push(f)
      }
    }
  }
  return facts
}

function locomo(): { turns: string[]; questions: string[] } {
  const samples = readJson<LocomoSample[]>(join(EVAL_DIR, 'locomo', 'locomo-dev.json'))
  const turns: string[] = []
  const questions: string[] = []
  for (const sample of samples) {
    for (const [key, value] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue
      for (const turn of value as { speaker: string; text: string }[]) {
        if (turn.text) turns.push(`${turn.speaker}: ${turn.text}`)
      }
    }
    for (const qa of sample.qa) if (qa.question) questions.push(qa.question)
  }
  return { turns, questions }
}

/** Builds `size` unique memory texts and `queryCount` queries (repeated if more are asked). */
export function buildCorpus(size: number, queryCount: number): Corpus {
  const next = seeded(SEED)
  const seen = new Set<string>()
  const unique = (list: string[]) =>
    list.filter((text) => {
      const key = dedupKey(text)
      if (key === '' || seen.has(key)) return false
      seen.add(key)
      return true
    })
  const facts = unique(mscFacts())
  const { turns: rawTurns, questions } = locomo()
  const turns = unique(rawTurns)
  const tagged = shuffle(
    [
      ...facts.map((t) => ({ t, src: 'msc' as const })),
      ...turns.map((t) => ({ t, src: 'locomo' as const })),
    ],
    next,
  )
  const texts: string[] = []
  const provenance = { msc: 0, locomo: 0, combined: 0 }
  for (const { t, src } of tagged) {
    if (texts.length >= size) break
    texts.push(t)
    provenance[src]++
  }
  while (texts.length < size) {
    const a = facts[Math.floor(next() * facts.length)] as string
    const b = facts[Math.floor(next() * facts.length)] as string
    const text = `${a} ${b}`
    const key = dedupKey(text)
    if (a === b || seen.has(key)) continue
    seen.add(key)
    texts.push(text)
    provenance.combined++
  }
  const order = shuffle([...questions], seeded(SEED + 1))
  const queries = Array.from({ length: queryCount }, (_, i) => order[i % order.length] as string)
  return { texts, queries, provenance }
}

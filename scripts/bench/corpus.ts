/**
 * The benchmark corpus and queries, read from `../shared/eval` at run time (never copied into the
 * repository). Where that data is absent (a fresh clone), a generated corpus stands in: seeded
 * persona-style facts and questions from small word lists, so the benchmark and its smoke test
 * run from the repository alone; its figures are not comparable with the published ones.
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
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dedupKey } from '../../src/core/text.ts'
import { uniform } from '../models/rng.ts'

/** Mulberry32, seeded: the same stream on every run, so a run can be replayed by its seed. */
export const seeded = uniform

export const EVAL_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'eval')
const SEED = 0x5eed

const MSC_FILE = join(EVAL_DIR, 'msc', 'msc_personas_all.json')
const LOCOMO_FILE = join(EVAL_DIR, 'locomo', 'locomo-dev.json')

/** Where the texts come from: the shared evaluation data, or the generator below. */
export type CorpusSource = 'shared' | 'generated'

export interface Corpus {
  /** `size` unique memory texts; index = document id. */
  texts: string[]
  /** Query texts. */
  queries: string[]
  /** How the texts were made, for the report (all `combined` for a generated corpus). */
  provenance: { msc: number; locomo: number; combined: number }
  source: CorpusSource
}

/**
 * `'shared'` when `../shared/eval` holds the MSC and LoCoMo files, else `'generated'`;
 * `ENGRAM_BENCH_CORPUS=generated` forces the generated one (a fresh clone's run, on a machine
 * that has the data).
 */
export function availableSource(): CorpusSource {
  if (process.env.ENGRAM_BENCH_CORPUS === 'generated') return 'generated'
  return existsSync(MSC_FILE) && existsSync(LOCOMO_FILE) ? 'shared' : 'generated'
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
  const raw = readJson<Record<string, Record<string, unknown>[]>>(MSC_FILE)
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
  const samples = readJson<LocomoSample[]>(LOCOMO_FILE)
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

/**
 * Builds `size` unique memory texts and `queryCount` queries (repeated if more are asked), from
 * the shared data when it is there (`source` forces one or the other).
 */
export function buildCorpus(
  size: number,
  queryCount: number,
  source: CorpusSource = availableSource(),
): Corpus {
  if (source === 'generated') return generatedCorpus(size, queryCount)
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
  return { texts, queries, provenance, source: 'shared' }
}

const PEOPLE = ['my sister', 'my brother', 'my mother', 'my father', 'my partner', 'my neighbour']
const PEOPLE_MORE = ['my best friend', 'my boss', 'my daughter', 'my son', 'my aunt', 'my cousin']
const ACTIVITIES = [
  'plays the violin',
  'runs marathons',
  'grows tomatoes',
  'paints watercolours',
  'collects vinyl records',
  'bakes sourdough bread',
  'climbs in the Alps',
  'writes short stories',
  'repairs old bicycles',
  'teaches yoga',
  'keeps bees',
  'speaks Portuguese',
  'builds model trains',
  'sings in a choir',
  'studies astronomy',
  'knits scarves',
]
const FOODS = ['sushi', 'lentil soup', 'dark chocolate', 'green tea', 'spicy curry', 'pancakes']
const FOODS_MORE = ['olives', 'goat cheese', 'mango', 'espresso', 'ramen', 'apple pie']
const PLACES = ['Lisbon', 'Kyoto', 'Toronto', 'Nairobi', 'Oslo', 'Lima', 'Hanoi', 'Dublin']
const JOBS = ['a nurse', 'a carpenter', 'an accountant', 'a pilot', 'a librarian', 'a chef']
const PETS = ['a dog', 'two cats', 'a parrot', 'a tortoise', 'goldfish', 'a rabbit']

/**
 * A seeded stand-in for the shared data: every combination of the lists above as a persona
 * fact (672 unique texts), shuffled; past those, two facts joined into one, as the shared
 * corpus does. Queries ask about the same people, foods, places and jobs.
 */
function generatedCorpus(size: number, queryCount: number): Corpus {
  const next = seeded(SEED)
  const people = [...PEOPLE, ...PEOPLE_MORE]
  const foods = [...FOODS, ...FOODS_MORE]
  const facts: string[] = []
  for (const who of people) {
    const Who = who[0]!.toUpperCase() + who.slice(1)
    for (const what of ACTIVITIES) facts.push(`${Who} ${what}.`)
    for (const food of foods) facts.push(`${Who} loves ${food} but never orders it out.`)
    for (const place of PLACES) facts.push(`${Who} lived in ${place} for three years.`)
    for (const job of JOBS) facts.push(`${Who} works as ${job}.`)
    for (const pet of PETS) facts.push(`${Who} has ${pet} at home.`)
  }
  for (const place of PLACES) {
    for (const food of foods) facts.push(`I tried ${food} for the first time in ${place}.`)
  }
  const seen = new Set(facts.map(dedupKey))
  const texts = shuffle(facts, next).slice(0, size)
  let combined = 0
  while (texts.length < size) {
    const a = facts[Math.floor(next() * facts.length)] as string
    const b = facts[Math.floor(next() * facts.length)] as string
    const text = `${a} ${b}`
    const key = dedupKey(text)
    if (a === b || seen.has(key)) continue
    seen.add(key)
    texts.push(text)
    combined++
  }
  const questions: string[] = []
  for (const who of people) {
    questions.push(`What does ${who} do for a living?`, `Where did ${who} live?`)
    questions.push(`Which food does ${who} love?`, `What is ${who}'s hobby?`)
  }
  for (const food of foods) questions.push(`Who loves ${food}?`)
  for (const place of PLACES) questions.push(`Who lived in ${place}?`)
  const order = shuffle(questions, seeded(SEED + 1))
  const queries = Array.from({ length: queryCount }, (_, i) => order[i % order.length] as string)
  return { texts, queries, provenance: { msc: 0, locomo: 0, combined }, source: 'generated' }
}

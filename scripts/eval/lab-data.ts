/**
 * The sets the fusion lab runs on, and their collected lists cached under `.scratch/lab/`
 * (gitignored), so trying a fusion function costs milliseconds rather than an engine run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Embedder } from '../../src/core/types.ts'
import {
  type EvalItem,
  type EvalSet,
  loadDataset,
  type Split,
  splitSet,
  type Unit,
} from './datasets.ts'
import { makeEmbedder } from './embedders.ts'
import { type CollectedSet, collectLists } from './lists.ts'

export const SHARED_EVAL = '../shared/eval'
export const LAB_DIR = '.scratch/lab'

/** A set the lab knows: where it comes from and whether tuning may look at it. */
export interface LabSet {
  id: string
  /** A dataset file, or `templated:` for the generated templated-facts set. */
  path: string
  unit: Unit
  split: Split
  /** `check`: never tuned on, reported with the held-out sets. */
  role: 'tune' | 'holdout' | 'check'
}

const LOCOMO = `${SHARED_EVAL}/locomo/locomo-dev.json`

export const LAB_SETS: readonly LabSet[] = [
  { id: 'turns-tune', path: LOCOMO, unit: 'turns', split: 'tune', role: 'tune' },
  { id: 'obs-tune', path: LOCOMO, unit: 'observations', split: 'tune', role: 'tune' },
  {
    id: 'dev-agent',
    path: `${SHARED_EVAL}/dev-agent.json`,
    unit: 'turns',
    split: 'all',
    role: 'tune',
  },
  {
    id: 'personal-tune',
    path: 'scripts/eval/data/personal-tune.json',
    unit: 'turns',
    split: 'all',
    role: 'tune',
  },
  { id: 'turns-holdout', path: LOCOMO, unit: 'turns', split: 'holdout', role: 'holdout' },
  { id: 'obs-holdout', path: LOCOMO, unit: 'observations', split: 'holdout', role: 'holdout' },
  {
    id: 'personal-holdout',
    path: 'scripts/eval/data/personal-holdout.json',
    unit: 'turns',
    split: 'all',
    role: 'holdout',
  },
  { id: 'templated', path: 'templated:', unit: 'turns', split: 'all', role: 'check' },
]

const PEOPLE = ['Priya', 'Omar', 'Lena', 'Tomas', 'Aiko', 'Ravi', 'Noor', 'Elias']
const RELATIONS = ['brother', 'sister', 'mother', 'father', 'cousin', 'uncle']

/**
 * The templated-facts fixture of test/integration/engine/templated-facts.test.ts as a set: 24
 * facts "<A>'s <relation> is <B>.", one question each in four wordings, two of them clipping
 * the relation word ("who's Priya's brot").
 */
export function templatedSet(): EvalSet {
  const items: EvalItem[] = []
  const questions: EvalSet['stores'][number]['questions'] = []
  PEOPLE.forEach((subject, i) => {
    for (let j = 0; j < 3; j++) {
      const relation = RELATIONS[(i + j * 2) % RELATIONS.length]!
      const object = PEOPLE[(i + j + 1) % PEOPLE.length]!
      const key = `f${items.length}`
      const n = items.length
      items.push({ keys: [key], text: `${subject}'s ${relation} is ${object}.` })
      const forms = [
        `Who is ${subject}'s ${relation}?`,
        `who's ${subject}'s ${relation.slice(0, 4)}`,
        `${subject} ${relation}`,
        `Tell me the name of ${subject}'s ${relation.slice(0, 5)}.`,
      ]
      questions.push({ query: forms[n % forms.length]!, relevant: [key], kind: 'relation' })
    }
  })
  return {
    name: 'templated',
    format: 'generic',
    unit: 'turns',
    stores: [{ name: 'templated', items, questions }],
    skipped: {},
    apart: [],
  }
}

const embedders = new Map<string, Promise<Embedder>>()

/**
 * The set's collected lists for `embedder` (`ngram` or `use`), from the cache when present.
 * Caches written since recall's fusion inputs were recorded (`QueryLists.fusion`) end
 * `.v2.json`; `fusion: true` insists on one, else an older cache still serves.
 */
export async function labSet(
  set: LabSet,
  embedder: string,
  log: (line: string) => void = () => {},
  options: { fusion?: boolean } = {},
): Promise<CollectedSet> {
  mkdirSync(LAB_DIR, { recursive: true })
  const file = join(LAB_DIR, `${set.id}.${embedder}.v2.json`)
  const legacy = join(LAB_DIR, `${set.id}.${embedder}.json`)
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as CollectedSet
  if (!options.fusion && existsSync(legacy)) {
    return JSON.parse(readFileSync(legacy, 'utf8')) as CollectedSet
  }
  if (!embedders.has(embedder)) embedders.set(embedder, makeEmbedder(embedder))
  const model = await embedders.get(embedder)!
  const data =
    set.path === 'templated:'
      ? templatedSet()
      : splitSet(loadDataset(set.path, set.unit), set.split)
  const collected = await collectLists(data, model, log)
  writeFileSync(file, JSON.stringify(collected))
  return collected
}

export const NONSENSE_FILE = 'scripts/eval/data/nonsense-queries.json'

/**
 * The off-topic queries of one half: `tune` takes the even positions of
 * `nonsense-queries.json`, `holdout` the odd ones (a rule fixed before any look at results).
 */
export function nonsenseQueries(half: 'tune' | 'holdout'): string[] {
  const all = (JSON.parse(readFileSync(NONSENSE_FILE, 'utf8')) as { queries: string[] }).queries
  return all.filter((_, i) => i % 2 === (half === 'tune' ? 0 : 1))
}

/** A generic set's memories asked off-topic queries, collected like a {@link LabSet}. */
export async function nonsenseSet(
  base: LabSet,
  half: 'tune' | 'holdout',
  embedder: string,
  log: (line: string) => void = () => {},
): Promise<CollectedSet> {
  mkdirSync(LAB_DIR, { recursive: true })
  const file = join(LAB_DIR, `${base.id}.nonsense-${half}.${embedder}.json`)
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as CollectedSet
  if (!embedders.has(embedder)) embedders.set(embedder, makeEmbedder(embedder))
  const model = await embedders.get(embedder)!
  const data = loadDataset(base.path, base.unit)
  const set: EvalSet = {
    ...data,
    name: `${data.name} × nonsense (${half})`,
    stores: data.stores.map((store) => ({
      ...store,
      questions: nonsenseQueries(half).map((query) => ({ query, relevant: [], kind: 'nonsense' })),
    })),
  }
  const collected = await collectLists(set, model, log)
  writeFileSync(file, JSON.stringify(collected))
  return collected
}

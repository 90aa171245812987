/**
 * Time as a signal on LoCoMo (issue 26 §3): the temporal category (2) and every question with
 * time words, before and after the turns carry `happenedAt`, with the soft boost, with hard
 * `since`/`until` filters from the question's own time words, and with each turn's time read
 * from its words (`resolveMentionedTime`). docs/time.md holds the tables this prints.
 *
 *   npx tsx scripts/eval/temporal.ts [--dataset PATH] [--embedder ngram|use] [--split all|tune|holdout]
 *     [--modes keyword,semantic,hybrid] [--dates tags|meta] [--when-factor 1.3] [--json]
 *
 * `--dates tags` (the default, as `npm run eval`) tags each turn with its session's month and
 * year, so a query's "May 2023" also matches by keyword; `meta` keeps the date out of the words.
 *
 * Variants, each over a fresh in-process engine per conversation (fake-indexeddb):
 * - `before`: today — turns stored without `happenedAt`, the query read as words (`time: false`).
 * - `session`: `happenedAt` = the session's date; the query's time words boost (`time: true`).
 * - `session+keep`: the same store; the time words stay in the words the lists search
 *   (`time: false`) and the script scores ×1.3 the hits of the top 30 whose time overlaps a
 *   window: the boost without taking the words out, to compare with the engine's.
 * - `session+filter`: the same store; the question's time words as hard `since`/`until`
 *   (`time: false`), questions without time words as `before`.
 * - `mentioned`: `happenedAt` = the time the turn's words name, resolved against its session
 *   date ("yesterday" in a session of 8 May is 7 May), else the session's date; `time: true`.
 * - `mentioned+when`: `mentioned`, and a "when …?" question (`asksWhen`) scores ×WHEN_FACTOR the
 *   hits whose text names a time. A prototype applied here to the top 30, not in the engine.
 *
 * The engine's clock is the day after the conversation's last session (when its questions are
 * asked), so "in June" resolves as it would have then. Category 5 (adversarial) is left out.
 *
 * Groups: category 2 scored on its evidence turn; category 2 scored on its *answer* (a hit counts
 * when the time it carries, `happenedAt`..`happenedUntil` or else `createdAt`, overlaps the span
 * the gold answer names: "7 May 2023", "The week before 9 June 2023"; questions asking how long,
 * or answered "N years ago", left out), which is what an assistant answering "when?" needs and
 * what a neighbouring turn that tells the same event also gives; every question with time words;
 * and all but category 5.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { overlapsTime } from '../../src/core/recall/boosts.ts'
import { asksWhen, findTimeWindows, resolveMentionedTime } from '../../src/core/time/index.ts'
import type { Embedder, RecallMode, RecallOptions, RememberItem } from '../../src/core/types.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'
import type { Split } from './datasets.ts'
import { ADVERSARIAL, type EvalItem, type EvalStore, loadDataset, splitSet } from './datasets.ts'
import { makeEmbedder } from './embedders.ts'
import { DEPTH, type Metrics, mean, scoreQuestion } from './metrics.ts'

const VARIANTS = [
  'before',
  'session',
  'session+keep',
  'session+filter',
  'mentioned',
  'mentioned+when',
] as const
type Variant = (typeof VARIANTS)[number]
/** Which stored shape a variant reads. */
const STORE_OF: Record<Variant, 'none' | 'session' | 'mentioned'> = {
  before: 'none',
  session: 'session',
  'session+keep': 'session',
  'session+filter': 'session',
  mentioned: 'mentioned',
  'mentioned+when': 'mentioned',
}
/** The groups of questions reported, each a table. */
const GROUPS = [
  'category 2',
  "category 2, the answer's time",
  'time words (any category)',
  'all but 5',
] as const
type Group = (typeof GROUPS)[number]

/** The prototype "when" boost's factor (`--when-factor`); 1.3 is the time boost's own. */
let WHEN_FACTOR = 1.3
const DAY = 86_400_000

interface Row {
  group: Group
  variant: Variant
  mode: RecallMode
  scores: Metrics
}

const sessionDay = (item: EvalItem) => Date.parse(String(item.meta?.date ?? ''))

function toItem(item: EvalItem, shape: 'none' | 'session' | 'mentioned'): RememberItem {
  const base: RememberItem = {
    text: item.text,
    poison: 'flag',
    source: 'import',
    ...(item.tags ? { tags: item.tags } : {}),
    ...(item.meta ? { meta: item.meta } : {}),
  }
  const day = sessionDay(item)
  if (shape === 'none' || Number.isNaN(day)) return base
  const mentioned = shape === 'mentioned' ? resolveMentionedTime(item.text, day) : null
  if (!mentioned) return { ...base, happenedAt: day }
  return {
    ...base,
    happenedAt: mentioned.happenedAt,
    ...(mentioned.happenedUntil !== undefined ? { happenedUntil: mentioned.happenedUntil } : {}),
  }
}

/** The recall options of a variant for one question, and whether it takes the when-rerank. */
function optionsFor(variant: Variant, query: string, now: number): RecallOptions {
  const base: RecallOptions = { k: DEPTH, log: false, boosts: false }
  if (variant === 'before') return { ...base, time: false }
  if (variant === 'session+filter') {
    const windows = findTimeWindows(query, now)
    if (windows.length === 0) return { ...base, time: false }
    const since = Math.min(...windows.map((w) => w.start))
    const until = Math.max(...windows.map((w) => w.end))
    return { ...base, time: false, since, until }
  }
  if (variant === 'mentioned+when') return { ...base, k: 30, time: true }
  if (variant === 'session+keep') return { ...base, k: 30, time: false }
  return { ...base, time: true }
}

let counter = 0

/**
 * The gold answers of LoCoMo's questions, by conversation and question, read from the same file:
 * the loader keeps only the evidence, and the answer's time is what a "when" question wants.
 */
function loadAnswers(path: string): Map<string, string> {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as {
    sample_id?: string
    qa: { question: string; answer?: unknown }[]
  }[]
  const out = new Map<string, string>()
  raw.forEach((c, i) => {
    for (const qa of c.qa) {
      if (qa.answer !== undefined) {
        out.set(`${c.sample_id ?? `conversation ${i + 1}`}\u0000${qa.question}`, String(qa.answer))
      }
    }
  })
  return out
}

/**
 * The span a category-2 answer names ("7 May 2023", "The week before 9 June 2023", "2022"), read
 * as the conversation's clock reads it; none for a length of time ("4 years", "10 years ago").
 */
function answerSpan(question: string, answer: string | undefined, now: number) {
  if (answer === undefined || /^how long/i.test(question) || /\bago\b/i.test(answer)) {
    return undefined
  }
  const windows = findTimeWindows(answer, now)
  if (windows.length === 0) return undefined
  return {
    start: Math.min(...windows.map((w) => w.start)),
    end: Math.max(...windows.map((w) => w.end)),
  }
}

let ANSWERS = new Map<string, string>()

async function runStore(
  store: EvalStore,
  shape: 'none' | 'session' | 'mentioned',
  modes: readonly RecallMode[],
  embedder: Embedder | undefined,
  rows: Row[],
): Promise<void> {
  const days = store.items.map(sessionDay).filter((d) => !Number.isNaN(d))
  const now = Math.max(...days) + DAY
  const engine = await MemoryEngine.open({
    name: `temporal-${++counter}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    autoReview: false,
    clock: () => now,
    ...(embedder ? { embedder } : {}),
  })
  try {
    const results = await engine.rememberMany(store.items.map((item) => toItem(item, shape)))
    const keysOf = new Map<string, string[]>()
    results.forEach((r, i) => {
      keysOf.set(r.id, [...(keysOf.get(r.id) ?? []), ...store.items[i]!.keys])
    })
    const variants = VARIANTS.filter((v) => STORE_OF[v] === shape)
    for (const q of store.questions) {
      if (q.kind === ADVERSARIAL) continue
      const groups: Group[] = ['all but 5']
      if (q.kind === '2') groups.push('category 2')
      if (findTimeWindows(q.query, now).length > 0) groups.push('time words (any category)')
      const relevant = new Set(q.relevant)
      const answer =
        q.kind === '2'
          ? answerSpan(q.query, ANSWERS.get(`${store.name}\u0000${q.query}`), now)
          : undefined
      for (const variant of variants) {
        for (const mode of modes) {
          const result = await engine.recall(q.query, {
            ...optionsFor(variant, q.query, now),
            mode,
          })
          let hits = result.hits.map((h) => ({ id: h.id, score: h.score, text: h.text }))
          if (variant === 'session+keep') {
            const windows = findTimeWindows(q.query, now)
            hits = result.hits
              .map((h) => {
                const a = h.memory.happenedAt ?? h.memory.createdAt
                const b = h.memory.happenedUntil ?? a
                const inside = windows.some((w) => a < w.end && b >= w.start)
                return { id: h.id, score: inside ? h.score * 1.3 : h.score, text: h.text }
              })
              .sort((x, y) => y.score - x.score)
          }
          if (variant === 'mentioned+when' && asksWhen(q.query)) {
            const day = (id: string) => sessionDay(store.items[itemIndex(keysOf, store, id)]!)
            hits = hits
              .map((h) => ({
                ...h,
                score:
                  findTimeWindows(h.text, day(h.id)).length > 0 ? h.score * WHEN_FACTOR : h.score,
              }))
              .sort((a, b) => b.score - a.score)
          }
          const ranked = hits.slice(0, DEPTH).map((h) => keysOf.get(h.id) ?? [])
          const scores = scoreQuestion(ranked, relevant)
          for (const group of groups) rows.push({ group, variant, mode, scores })
          if (answer) {
            // A hit "has" the answer when the time it carries overlaps the answer's span.
            const memoryOf = new Map(result.hits.map((h) => [h.id, h.memory]))
            const carries = hits.slice(0, DEPTH).map((h) => {
              const m = memoryOf.get(h.id)
              return m && overlapsTime(m, answer.start, answer.end) ? ['answer'] : []
            })
            const group = "category 2, the answer's time"
            rows.push({ group, variant, mode, scores: scoreQuestion(carries, new Set(['answer'])) })
          }
        }
      }
    }
  } finally {
    await engine.close()
  }
}

/** The item a stored id came from (its first key), for its session date. */
function itemIndex(keysOf: Map<string, string[]>, store: EvalStore, id: string): number {
  const key = keysOf.get(id)?.[0]
  return store.items.findIndex((item) => item.keys[0] === key)
}

function table(rows: Row[], group: Group, modes: readonly RecallMode[]): string {
  const of = rows.filter((r) => r.group === group)
  const n = of.filter((r) => r.variant === 'before' && r.mode === modes[0]).length
  const head = `| variant (${n} questions) | ${modes.map((m) => `${m} hit@1 | hit@5 | MRR`).join(' | ')} |`
  const rule = `| --- | ${modes.map(() => '---: | ---: | ---:').join(' | ')} |`
  const lines = VARIANTS.map((variant) => {
    const cells = modes.map((mode) => {
      const m = mean(
        of.filter((r) => r.variant === variant && r.mode === mode).map((r) => r.scores),
      )
      return [m['hit@1'], m['hit@5'], m.mrr].map((x) => x.toFixed(3)).join(' | ')
    })
    return `| ${variant} | ${cells.join(' | ')} |`
  })
  return [`**${group}**`, '', head, rule, ...lines].join('\n')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: '../shared/eval/locomo/locomo-dev.json' },
      embedder: { type: 'string', default: 'ngram' },
      split: { type: 'string', default: 'all' },
      modes: { type: 'string', default: 'keyword,semantic,hybrid' },
      json: { type: 'boolean', default: false },
      dates: { type: 'string', default: 'tags' },
      'when-factor': { type: 'string', default: '1.3' },
    },
  })
  WHEN_FACTOR = Number(values['when-factor'])
  ANSWERS = loadAnswers(values.dataset)
  if (!(WHEN_FACTOR >= 1)) throw new TypeError('--when-factor: a number ≥ 1')
  if (values.dates !== 'tags' && values.dates !== 'meta') throw new TypeError('--dates: tags|meta')
  const modes = values.modes.split(',') as RecallMode[]
  if (!['all', 'tune', 'holdout'].includes(values.split))
    throw new TypeError('--split: all|tune|holdout')
  const set = splitSet(
    loadDataset(values.dataset, 'turns', { dates: values.dates }),
    values.split as Split,
  )
  const embedder = modes.some((m) => m !== 'keyword')
    ? await makeEmbedder(values.embedder)
    : undefined
  await embedder?.load()
  const rows: Row[] = []
  for (const store of set.stores) {
    for (const shape of ['none', 'session', 'mentioned'] as const) {
      await runStore(store, shape, modes, embedder, rows)
    }
    process.stderr.write(
      `${store.name}: ${store.items.length} turns, ${store.questions.length} questions\n`,
    )
  }
  if (values.json) {
    const out: Record<string, unknown> = {}
    for (const group of GROUPS) {
      for (const variant of VARIANTS) {
        for (const mode of modes) {
          const of = rows.filter(
            (r) => r.group === group && r.variant === variant && r.mode === mode,
          )
          out[`${group}/${variant}/${mode}`] = { n: of.length, ...mean(of.map((r) => r.scores)) }
        }
      }
    }
    process.stdout.write(
      `${JSON.stringify({ dataset: set.name, embedder: embedder?.model ?? null, results: out }, null, 2)}\n`,
    )
    return
  }
  process.stdout.write(`${set.name}, turns, embedder ${embedder?.model ?? 'none'}\n\n`)
  for (const group of GROUPS) process.stdout.write(`${table(rows, group, modes)}\n\n`)
}

await main()

/**
 * Time as a signal on a seeded store of dated events (issue 26 §3): the soft time boost against
 * hard `since`/`until` filters, where the answer turns on *when* and not on the words. Prints a
 * markdown table of hit@1, hit@5 and MRR per variant and mode.
 *
 *   npx tsx scripts/eval/time-windows.ts [--seed 7] [--embedder ngram|use] [--undated 0.3]
 *     [--modes keyword,hybrid] [--factor 1.3] [--serials letters|digits]
 *
 * The store: twelve recurring activities ("Dinner with Ana at …"), each once a month from
 * January 2023 to February 2024 and once in each of the last two weeks before the clock
 * (Thursday 14 March 2024), with details that vary and carry no time words. A fraction
 * (`--undated`, default 0.3) of the events is stored without `happenedAt`, as a note written up
 * 0–4 days after the event (so its `createdAt` is a little late), the rest with `happenedAt` at
 * the true moment. Each question names an activity and a window ("in May 2023", "on 8 June
 * 2023", "last week", "two months ago"); its answer is the one event of that activity whose
 * true time lies in the window (questions with none or several are skipped).
 *
 * Every recall runs with `boosts: false` (no recency or confidence to blur the time signal) and
 * `includeExpired: true` (a note a year old is past its tier's TTL; the question here is time,
 * not the lifecycle).
 *
 * Variants, each over the same engine:
 * - `words`: `time: false`, the time words read as words (the engine before this change).
 * - `soft`: `time: true`, the default: the window boosts, nothing is dropped.
 * - `hard`: `time: true` and `since`/`until` set to the window, as a caller who turned the
 *   words into a filter would.
 */
import { parseArgs } from 'node:util'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { findTimeWindows } from '../../src/core/time/index.ts'
import type { RecallMode, RecallOptions, RememberItem } from '../../src/core/types.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'
import { uniform } from '../models/rng.ts'
import { makeEmbedder } from './embedders.ts'
import { type Metrics, mean, scoreQuestion } from './metrics.ts'

const NOW = Date.UTC(2024, 2, 14, 12)
const DAY = 86_400_000
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** An activity: how a note of it reads, how a question asks for it, and the details that vary. */
const ACTIVITIES: { note: string; ask: string; details: string[] }[] = [
  {
    note: 'Dinner with Ana at the {}',
    ask: 'dinner with Ana',
    details: [
      'Thai place',
      'harbour restaurant',
      'pizza bar',
      'ramen counter',
      'tapas bar',
      'Lebanese grill',
    ],
  },
  {
    note: 'Call with the landlord about the {}',
    ask: 'call with the landlord',
    details: [
      'boiler',
      'rent increase',
      'damp wall',
      'window latch',
      'lease renewal',
      'noisy pipes',
    ],
  },
  {
    note: 'Dentist check-up: {}',
    ask: 'dentist check-up',
    details: [
      'one filling',
      'all clear',
      'a cleaning',
      'x-rays taken',
      'gum advice',
      'a crown fitted',
    ],
  },
  {
    note: 'Ran along the {} with Tom',
    ask: 'run with Tom',
    details: ['river path', 'canal', 'seafront', 'park loop', 'old railway line', 'ridge trail'],
  },
  {
    note: 'Team retro decided to {}',
    ask: 'team retro decision',
    details: [
      'drop the Friday release',
      'pair on reviews',
      'move standup to ten',
      'write more tests',
      'rotate on-call',
      'freeze the schema',
    ],
  },
  {
    note: 'Bought {} at the farmers market',
    ask: 'farmers market purchase',
    details: ['honey', 'sourdough', 'goat cheese', 'asparagus', 'plums', 'smoked trout'],
  },
  {
    note: 'Piano lesson covered {}',
    ask: 'piano lesson',
    details: [
      'scales in E flat',
      'a Chopin nocturne',
      'sight reading',
      'pedalling',
      'a Bach invention',
      'chord voicings',
    ],
  },
  {
    note: 'Vet visit for Miso: {}',
    ask: 'vet visit for Miso',
    details: [
      'vaccines',
      'a sore paw',
      'a weigh-in',
      'flea treatment',
      'teeth cleaned',
      'an ear infection',
    ],
  },
  {
    note: 'Book club read {}',
    ask: 'book club book',
    details: [
      'Piranesi',
      'The Overstory',
      'Stoner',
      'Klara and the Sun',
      'Middlemarch',
      'The Dispossessed',
    ],
  },
  {
    note: 'Haircut at {}',
    ask: 'haircut',
    details: [
      'the corner barber',
      'Studio Nine',
      'the salon by the station',
      'Marco’s',
      'the new place on Elm Street',
      'a pop-up chair',
    ],
  },
  {
    note: 'Mum phoned about {}',
    ask: 'mum phoned',
    details: [
      'her knee',
      'the garden',
      'a cousin’s wedding',
      'her new phone',
      'the holiday plans',
      'the neighbours',
    ],
  },
  {
    note: 'Climbing session at {}',
    ask: 'climbing session',
    details: [
      'the bouldering hall',
      'the quarry',
      'the old church wall',
      'the indoor centre',
      'the sea cliffs',
      'the university gym',
    ],
  },
]

/** How a question names the window an event lies in, by the event's true time. */
function phrasings(at: number): [Phrasing, string][] {
  const d = new Date(at)
  const month = MONTHS[d.getUTCMonth()]!
  const year = d.getUTCFullYear()
  const out: [Phrasing, string][] = [
    ['month', `in ${month} ${year}`],
    ['date', `on ${d.getUTCDate()} ${month} ${year}`],
  ]
  if (at >= NOW - 14 * DAY)
    out.push(['weeks', at >= NOW - 10 * DAY ? 'last week' : 'two weeks ago'])
  const monthsAgo = (2024 - year) * 12 + (2 - d.getUTCMonth())
  if (monthsAgo >= 2 && monthsAgo <= 6)
    out.push([
      'months ago',
      `${['', '', 'two', 'three', 'four', 'five', 'six'][monthsAgo]} months ago`,
    ])
  return out
}

/** How a question names its window: a month, a date, a recent week, a number of months back. */
const PHRASINGS = ['month', 'date', 'weeks', 'months ago'] as const
type Phrasing = (typeof PHRASINGS)[number]

/**
 * What keeps two notes of one activity with the same detail apart (exact dedup would merge them).
 * `letters` (the default) writes `ref xag`, no word or number a question uses; `digits`, the
 * first rule, wrote `note 0.8`, whose "8" matched the day of "on 8 June 2023" and put the wrong
 * dinner first (soft keyword hit@1 on date questions 0.380 with digits).
 */
function serial(a: number, i: number, serials: 'letters' | 'digits'): string {
  if (serials === 'digits') return `note ${a}.${i}`
  return `ref x${String.fromCharCode(97 + a)}${String.fromCharCode(97 + i)}`
}

interface Event {
  key: string
  activity: number
  at: number
  item: RememberItem
  /** When the note is stored: the event's time, or up to 4 days later for an undated note. */
  storedAt: number
}

function makeEvents(seed: number, undated: number, serials: 'letters' | 'digits'): Event[] {
  // Mulberry32 (the project's seeded generator): the store and its undated share are the same each run.
  const next = uniform(seed)
  const events: Event[] = []
  ACTIVITIES.forEach((activity, a) => {
    const times: number[] = []
    for (let m = 0; m < 14; m++) {
      times.push(Date.UTC(2023, m, 1 + Math.floor(next() * 27), 8 + Math.floor(next() * 12)))
    }
    times.push(NOW - (3 + Math.floor(next() * 4)) * DAY - 6 * 3_600_000)
    times.push(NOW - (10 + Math.floor(next() * 3)) * DAY)
    times.forEach((at, i) => {
      const detail = activity.details[Math.floor(next() * activity.details.length)]!
      const text = `${activity.note.replace('{}', detail)} (${serial(a, i, serials)})`
      const dated = next() >= undated
      const storedAt = dated ? NOW - 30 * DAY : at + Math.floor(next() * 4 * DAY)
      const item: RememberItem = { text, source: 'user', ...(dated ? { happenedAt: at } : {}) }
      events.push({ key: `${a}.${i}`, activity: a, at, item, storedAt: Math.min(storedAt, NOW) })
    })
  })
  return events
}

interface Question {
  query: string
  phrasing: Phrasing
  relevant: string
  window: { start: number; end: number }
}

function makeQuestions(events: readonly Event[]): Question[] {
  const questions: Question[] = []
  for (const event of events) {
    for (const [phrasing, when] of phrasings(event.at)) {
      const query = `${ACTIVITIES[event.activity]!.ask} ${when}`
      const windows = findTimeWindows(query, NOW)
      if (windows.length !== 1) continue
      const w = windows[0]!
      const inside = events.filter(
        (e) => e.activity === event.activity && e.at >= w.start && e.at < w.end,
      )
      if (inside.length !== 1 || inside[0] !== event) continue
      questions.push({
        query,
        phrasing,
        relevant: event.key,
        window: { start: w.start, end: w.end },
      })
    }
  }
  return questions
}

const VARIANTS = ['words', 'soft', 'hard'] as const
type Variant = (typeof VARIANTS)[number]

function optionsFor(
  variant: Variant,
  q: Question,
  mode: RecallMode,
  factor: number,
): RecallOptions {
  const base: RecallOptions = { k: 10, mode, log: false, boosts: false, includeExpired: true }
  if (variant === 'words') return { ...base, time: false }
  if (variant === 'soft') return { ...base, time: { factor } }
  return { ...base, time: { factor }, since: q.window.start, until: q.window.end }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '7' },
      embedder: { type: 'string', default: 'ngram' },
      undated: { type: 'string', default: '0.3' },
      modes: { type: 'string', default: 'keyword,hybrid' },
      factor: { type: 'string', default: '1.3' },
      serials: { type: 'string', default: 'letters' },
    },
  })
  if (values.serials !== 'letters' && values.serials !== 'digits') {
    throw new TypeError('--serials: letters|digits')
  }
  const events = makeEvents(Number(values.seed), Number(values.undated), values.serials)
  const questions = makeQuestions(events)
  let clock = NOW
  const engine = await MemoryEngine.open({
    name: 'time-windows',
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    autoReview: false,
    clock: () => clock,
    embedder: await makeEmbedder(values.embedder),
  })
  const keyOf = new Map<string, string>()
  for (const event of [...events].sort((a, b) => a.storedAt - b.storedAt)) {
    clock = event.storedAt
    const { text, ...options } = event.item
    keyOf.set((await engine.remember(text, options)).id, event.key)
  }
  clock = NOW
  const modes = values.modes.split(',') as RecallMode[]
  const lines = [
    `${events.length} events (${events.filter((e) => e.item.happenedAt === undefined).length} undated), ${questions.length} questions, seed ${values.seed}, ${values.embedder}, factor ${values.factor}`,
    '',
    '| variant | mode | hit@1 | hit@5 | MRR | answer dropped |',
    '| ------- | ---- | ----- | ----- | --- | -------------- |',
  ]
  const byPhrasing: string[] = [
    '',
    `hit@1 / hit@5 by how the question names its window (${PHRASINGS.map((p) => `${p}: ${questions.filter((q) => q.phrasing === p).length}`).join(', ')})`,
    '',
    `| variant | mode | ${PHRASINGS.join(' | ')} |`,
    `| ------- | ---- | ${PHRASINGS.map(() => '---').join(' | ')} |`,
  ]
  const f = (x: number) => x.toFixed(3)
  for (const mode of modes) {
    for (const variant of VARIANTS) {
      const scores: Metrics[] = []
      let dropped = 0
      for (const q of questions) {
        const { hits } = await engine.recall(
          q.query,
          optionsFor(variant, q, mode, Number(values.factor)),
        )
        scores.push(
          scoreQuestion([...hits.map((h) => [keyOf.get(h.id) ?? h.id])], new Set([q.relevant])),
        )
        if (variant === 'hard') {
          const event = events.find((e) => e.key === q.relevant)!
          const time = event.item.happenedAt ?? event.storedAt
          if (time < q.window.start || time >= q.window.end) dropped++
        }
      }
      const m = mean(scores)
      const lost = variant === 'hard' ? `${dropped} of ${questions.length}` : '0'
      lines.push(
        `| ${variant} | ${mode} | ${f(m['hit@1'])} | ${f(m['hit@5'])} | ${f(m.mrr)} | ${lost} |`,
      )
      const cells = PHRASINGS.map((p) => {
        const of = mean(scores.filter((_, i) => questions[i]!.phrasing === p))
        return `${f(of['hit@1'])} / ${f(of['hit@5'])}`
      })
      byPhrasing.push(`| ${variant} | ${mode} | ${cells.join(' | ')} |`)
    }
  }
  lines.push(...byPhrasing)
  await engine.close()
  console.log(lines.join('\n'))
}

await main()

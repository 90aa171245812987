/**
 * The relevance floor in recall (issue 13): the real engine over fake-indexeddb with the n-gram
 * embedder, whose calibration comes from the model table.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import { OPEN_WORLD_TEXTS } from '../../../../src/core/recall/open-world.ts'
import type { Embedder, EmbedKind, RecallOptions } from '../../../../src/core/types.ts'
import { NGRAM_MODEL, USE_LITE_MODEL } from '../../../../src/embedder/model-table.ts'
import { NgramEmbedder } from '../../../../src/embedder/ngram-embedder.ts'
import type { MemoryEngine } from '../../../../src/engine/memory-engine.ts'
import { closingEngines } from '../../../helpers/engine.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'

const open = closingEngines()

const FACTS = [
  "Priya is the owner's sister-in-law",
  'The owner prefers metric units',
  'The deploy script is tools/deploy.sh and needs the authHandler token',
  'Standup is at 9:30 every weekday in room "Blue Whale"',
  'The cat is called Miso and eats at six',
  'Our wifi password is hunter2',
  'The dentist appointment is on the third of March',
  'My brother Tom lives in Lisbon',
  'Use pnpm, not npm, in the web repo',
  'The car needs new tyres before winter',
]

/**
 * The n-gram embedder under another model id, counting the texts it embeds by kind. The embedder
 * is not under test: the floor's reading of the model id, and the recall's embeds, are.
 */
class Renamed implements Embedder {
  readonly #inner = new NgramEmbedder()
  counts = { query: 0, passage: 0 }
  constructor(readonly model: string) {}
  get dims() {
    return this.#inner.dims
  }
  get state() {
    return this.#inner.state
  }
  load() {
    return this.#inner.load()
  }
  embed(texts: string[], options: { kind: EmbedKind }) {
    this.counts[options.kind] += texts.length
    return this.#inner.embed(texts, options)
  }
  stats() {
    return { ...this.#inner.stats(), model: this.model }
  }
}

/** A model the table has no calibration for. */
const uncalibrated = () => new Renamed('someone/uncalibrated')

let memory: MemoryEngine
const ids = new Map<string, string>()

async function fill(engine: MemoryEngine): Promise<void> {
  const results = await engine.rememberMany(FACTS.map((text) => ({ text })))
  results.forEach((r, i) => {
    ids.set(FACTS[i]!, r.id)
  })
}

beforeEach(async () => {
  memory = await open()
  await fill(memory)
})

/** `count` queries of 2–4 random lower-case letter strings, seeded. */
function randomWordQueries(count: number): string[] {
  const next = uniform(TEST_SEED)
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  const word = () =>
    Array.from({ length: 5 + Math.floor(next() * 5) }, () => letters[Math.floor(next() * 26)]).join(
      '',
    )
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + Math.floor(next() * 3) }, word).join(' '),
  )
}

describe('the relevance floor in recall', () => {
  it('returns no hits for a nonsense query, and says how many it dropped', async () => {
    const floored = await memory.recall('banana spaceship')
    expect(floored.hits).toEqual([])
    expect(floored.filtered).toBe(5)
    const everything = await memory.recall('banana spaceship', { floor: false })
    expect(everything.hits).toHaveLength(5)
    expect(everything.filtered).toBe(0)
  })

  it('returns no hits for queries of random words', async () => {
    for (const query of randomWordQueries(20)) {
      const { hits } = await memory.recall(query)
      expect({ query, hits }).toEqual({ query, hits: [] })
    }
  })

  it('keeps the memory a real question is about, first, and drops what matched nothing', async () => {
    const tom = await memory.recall('where does Tom live?')
    expect(tom.hits.map((h) => h.id)).toEqual([ids.get('My brother Tom lives in Lisbon')])
    expect(tom.filtered).toBe(4)
    const priya = await memory.recall('Who is Priya?')
    expect(priya.hits[0]!.id).toBe(ids.get(FACTS[0]!))
    // The n-gram model lifts "is the…" facts well above noise: they stay, and say why.
    for (const hit of priya.hits.slice(1)) {
      expect(hit.explanation).toMatch(/floor: no term matched, cosine \d+\.\d spreads above/)
    }
  })

  it('keeps identifier and quoted-phrase matches', async () => {
    const deploy = ids.get(FACTS[2]!)
    for (const query of ['authHandler', 'auth handler', 'auth_handler']) {
      const { hits } = await memory.recall(query)
      expect(hits.map((h) => h.id)).toContain(deploy)
    }
    const phrase = await memory.recall('"Blue Whale"')
    expect(phrase.hits.map((h) => h.id)).toEqual([ids.get(FACTS[3]!)])
  })

  it('keeps every keyword match in keyword mode, a word of a nonsense query included', async () => {
    const banana = await memory.remember('Banana bread needs three ripe bananas')
    const { hits, filtered } = await memory.recall('banana spaceship', { mode: 'keyword' })
    expect(hits.map((h) => h.id)).toEqual([banana.id])
    expect(filtered).toBe(0)
  })

  it('keeps a semantic hit whose words the query shares, in semantic mode', async () => {
    const { hits } = await memory.recall('the dentist appointment', { mode: 'semantic' })
    expect(hits[0]!.id).toBe(ids.get('The dentist appointment is on the third of March'))
    const nonsense = await memory.recall('banana spaceship', { mode: 'semantic' })
    expect(nonsense.hits).toEqual([])
    expect(nonsense.filtered).toBe(5)
  })

  it('drops nothing when the model has no calibration', async () => {
    const plain = await open({ embedder: uncalibrated() })
    await fill(plain)
    const { hits, filtered } = await plain.recall('banana spaceship')
    expect(hits).toHaveLength(5)
    expect(filtered).toBe(0)
  })

  it('takes adjusted bars: a query lift of 0 lets a nonsense query through', async () => {
    const lax = await memory.recall('banana spaceship', { floor: { queryLift: 0, hitLift: 0 } })
    expect(lax.hits).toHaveLength(5)
    expect(lax.filtered).toBe(0)
    const strict = await memory.recall('Who is Priya?', { floor: { hitLift: 100 } })
    expect(strict.hits.map((h) => h.id)).toEqual([ids.get(FACTS[0]!)])
  })

  it('holds term-less hits to minCosine also when the model has no calibration', async () => {
    const plain = await open({ embedder: uncalibrated() })
    await fill(plain)
    const nonsense = await plain.recall('banana spaceship', { floor: { minCosine: 0.5 } })
    expect(nonsense.hits).toEqual([])
    expect(nonsense.filtered).toBe(5)
    const priya = await plain.recall('Who is Priya?', { floor: { minCosine: 0.5 } })
    expect(priya.hits[0]!.id).toBe(ids.get(FACTS[0]!))
    for (const hit of priya.hits) expect(hit.terms.length > 0 || hit.cosine! >= 0.5).toBe(true)
  })

  it('merges the engine’s recallDefaults.floor under each call’s floor', async () => {
    const off = await open({ recallDefaults: { floor: false } })
    await fill(off)
    expect((await off.recall('banana spaceship')).hits).toHaveLength(5)
    // `true` on a call over an engine default of `false`: the floor's own bars.
    expect((await off.recall('banana spaceship', { floor: true })).hits).toEqual([])
    const lax = await open({ recallDefaults: { floor: { queryLift: 0, hitLift: 0 } } })
    await fill(lax)
    expect((await lax.recall('banana spaceship')).hits).toHaveLength(5)
    expect((await lax.recall('banana spaceship', { floor: true })).hits).toHaveLength(5)
    // A call's bars merge over the engine's: its lifts stay 0, the raw bar now drops all.
    const both = await lax.recall('banana spaceship', { floor: { minCosine: 0.9 } })
    expect(both).toMatchObject({ hits: [], filtered: 5 })
  })

  it('shows the select hook only hits that cleared the floor', async () => {
    let seen = -1
    const { hits, selection } = await memory.recall('banana spaceship', {
      select: (_q, shown) => {
        seen = shown.length
        return shown.map((h) => h.id)
      },
    })
    expect(hits).toEqual([])
    expect(selection).toBe('empty')
    expect(seen).toBe(-1)
  })
})

describe('floor option validation', () => {
  const bad: [string, unknown, string][] = [
    ['a string', 'off', 'floor'],
    ['null', null, 'floor'],
    ['a number', 1, 'floor'],
    ['an array', [], 'floor'],
    ['an unknown bar', { bogus: 1 }, 'floor.bogus'],
    ['a negative lift', { queryLift: -1 }, 'floor.queryLift'],
    ['a lift over 100', { hitLift: 101 }, 'floor.hitLift'],
    ['coverage over 1', { queryCoverage: 1.5 }, 'floor.queryCoverage'],
    ['a NaN bar', { queryCoverage: Number.NaN }, 'floor.queryCoverage'],
    ['a string bar', { hitLift: '1' }, 'floor.hitLift'],
    ['a cosine under -1', { minCosine: -1.5 }, 'floor.minCosine'],
    ['a cosine over 1', { minCosine: 2 }, 'floor.minCosine'],
  ]
  for (const [what, floor, field] of bad) {
    it(`rejects ${what} as BAD_OPTION naming ${field}`, async () => {
      const call = memory.recall('Who is Priya?', { floor } as unknown as RecallOptions)
      await expect(call).rejects.toBeInstanceOf(InvalidInputError)
      await expect(call).rejects.toMatchObject({ code: 'BAD_OPTION', field })
    })
  }

  it('accepts true, false and bars at the ends of their ranges', async () => {
    for (const floor of [
      true,
      false,
      { queryCoverage: 0, queryLift: 100, hitLift: 0 },
      { minCosine: -1 },
      {},
    ]) {
      const { hits } = await memory.recall('Who is Priya?', { floor })
      expect(hits[0]!.id).toBe(ids.get(FACTS[0]!))
    }
  })
})

/**
 * An embedder under USE-lite's id (so its calibration applies, unrelated 0.14, spread 0.1, and
 * its small stores are held against the open world) whose cosines are planted: the query is axis 0, each memory leans `cosine` towards it on
 * an axis of its own, and every open-world text leans `world` towards it on the last axis, so
 * every cosine is exactly the one chosen.
 */
class Planted implements Embedder {
  readonly model: string
  readonly dims = 256
  readonly state = 'ready' as const
  readonly #cosines: ReadonlyMap<string, number>
  readonly #axes: ReadonlyMap<string, number>
  readonly #world: number
  constructor(cosines: ReadonlyMap<string, number>, world = 0, model = USE_LITE_MODEL) {
    this.model = model
    this.#cosines = cosines
    this.#axes = new Map([...cosines.keys()].map((text, i) => [text, 1 + i]))
    this.#world = world
  }
  async load() {}
  async embed(texts: string[]) {
    return texts.map((text) => {
      const v = new Float32Array(this.dims)
      const c = this.#cosines.get(text) ?? (WORLD.has(text) ? this.#world : undefined)
      if (c === undefined) v[0] = 1
      else {
        v[0] = c
        v[this.#axes.get(text) ?? this.dims - 1] = Math.sqrt(1 - c * c)
      }
      return v
    })
  }
  stats() {
    return { model: this.model, dims: this.dims, state: this.state, device: 'cpu' as const }
  }
}

const WORLD = new Set(OPEN_WORLD_TEXTS)
const lift = (spreads: number) => 0.14 + spreads * 0.1

describe('the relevance floor in a small store, held against the open world (issue 26)', () => {
  // A paraphrase answer ("what measurement system do I like?" → "I prefer metric units"): no
  // shared term, cosine at lift 1.6 — under the 2.5 a store of 100 or more is held to, but above
  // the small store's bar of 1 and above the query's best open-world cosine.
  const ANSWER = 'I prefer metric units'
  const others = ['My birthday is in March', 'I work as a nurse', 'I am allergic to peanuts']
  const fillers = Array.from({ length: 100 }, (_, i) => `Filler note ${i} about quarterly planning`)

  async function storeOf(
    texts: string[],
    answer: number,
    world: number,
  ): Promise<{ engine: MemoryEngine; answer: string }> {
    const cosines = new Map(texts.map((t) => [t, t === ANSWER ? answer : 0.04]))
    const engine = await open({ embedder: new Planted(cosines, world) })
    const results = await engine.rememberMany(texts.map((text) => ({ text })))
    return { engine, answer: results[texts.indexOf(ANSWER)]!.id }
  }

  for (const mode of ['hybrid', 'semantic'] as const) {
    it(`keeps the answer of a five-fact store that a 104-fact store empties (${mode})`, async () => {
      const five = [ANSWER, ...others, 'The cat is called Miso']
      const small = await storeOf(five, lift(1.6), lift(1.2))
      const kept = await small.engine.recall('what measurement system do I like?', { mode })
      expect(kept.hits.map((h) => h.id)).toEqual([small.answer])
      const large = await storeOf([ANSWER, ...others, ...fillers], lift(1.6), lift(1.2))
      const emptied = await large.engine.recall('what measurement system do I like?', { mode })
      expect(emptied.hits).toEqual([])
      expect(emptied.filtered).toBeGreaterThan(0)
    })
  }

  it('empties a small store for a query the open world answers better than the store', async () => {
    // "how tall is Mount Kilimanjaro" against a hiker's facts: the store's best at lift 2.0, an
    // encyclopedic sentence at 3.0, a full spread above it: the store has nothing on it.
    const five = [ANSWER, ...others, 'I hiked in the Alps last summer']
    const trivia = await storeOf(five, lift(2), lift(3))
    const asked = await trivia.engine.recall('how tall is Mount Kilimanjaro')
    expect(asked).toMatchObject({ hits: [], filtered: 5 })
    // The same best cosine with the world no nearer than 0.4 spreads above it is kept.
    const near = await storeOf(five, lift(2), lift(2.4))
    const kept = await near.engine.recall('how tall is Mount Kilimanjaro')
    expect(kept.hits.map((h) => h.id)).toEqual([near.answer])
  })

  it('lets queryLift set how strict the small-store bars are', async () => {
    const five = [ANSWER, ...others, 'I hiked in the Alps last summer']
    const trivia = await storeOf(five, lift(2), lift(3))
    const lax = await trivia.engine.recall('how tall is Mount Kilimanjaro', {
      floor: { queryLift: 0 },
    })
    expect(lax.hits.map((h) => h.id)).toEqual([trivia.answer])
    const kept = await storeOf(five, lift(2), lift(2.4))
    const strict = await kept.engine.recall('how tall is Mount Kilimanjaro', {
      floor: { queryLift: 10 },
    })
    expect(strict.hits).toEqual([])
  })

  it('leaves the n-gram model’s small stores to the expected-maximum bar', async () => {
    // Same planted trivia store under the n-gram id (unrelated 0.05, spread 0.09): lift 2.0 clears
    // the 1.18 the best of five unrelated cosines reaches, and the open world is not read.
    const five = [ANSWER, ...others, 'I hiked in the Alps last summer']
    const cosines = new Map(five.map((t) => [t, t === ANSWER ? 0.05 + 2 * 0.09 : 0.04]))
    const engine = await open({ embedder: new Planted(cosines, 0.05 + 3 * 0.09, NGRAM_MODEL) })
    const results = await engine.rememberMany(five.map((text) => ({ text })))
    const { hits } = await engine.recall('how tall is Mount Kilimanjaro')
    expect(hits.map((h) => h.id)).toEqual([results[0]!.id])
  })

  it('embeds the query once per recall in a small store, the open world read with that vector', async () => {
    const embedder = new Renamed(USE_LITE_MODEL)
    const engine = await open({ embedder })
    await engine.rememberMany(FACTS.map((text) => ({ text })))
    embedder.counts = { query: 0, passage: 0 }
    for (const mode of ['hybrid', 'semantic'] as const) {
      await engine.recall('where does Tom live?', { mode })
    }
    // Two recalls: two query embeds, and the open world embedded once (the floor read it).
    expect(embedder.counts).toEqual({ query: 2, passage: OPEN_WORLD_TEXTS.length })
  })

  it('still empties a five-fact store for a query whose best cosine is the store’s noise', async () => {
    const texts = [ANSWER, ...others, 'x']
    const engine = await open({
      embedder: new Planted(new Map(texts.map((t) => [t, lift(0.9)])), lift(0)),
    })
    await engine.rememberMany(texts.map((text) => ({ text })))
    const { hits } = await engine.recall('quantum lobster parliament')
    expect(hits).toEqual([])
  })
})

/**
 * A page is stored and keyword-searchable before its chunks are embedded: `pages.remember`
 * returns then, the backfill fills the vectors a batch at a time (announcing each page's
 * progress), and a reload resumes where it stopped. `wait: 'vectors'` keeps the old contract.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { BACKFILL_BATCH } from '../../../../src/core/options.ts'
import type { MemoryEvent } from '../../../../src/core/types.ts'
import { closingEngines } from '../../../helpers/engine.ts'
import { GatedEmbedder } from './gated-embedder.ts'
import { guide } from './page-fixture.ts'

const engine = closingEngines()

const gates: GatedEmbedder[] = []
// Registered after `closingEngines`, so it runs first (hooks unwind as a stack): a failing test
// never leaves a close waiting at a shut gate.
afterEach(() => {
  for (const gate of gates.splice(0)) gate.open()
})

function gated(): GatedEmbedder {
  const gate = new GatedEmbedder()
  gates.push(gate)
  return gate
}

type PageEmbedding = Extract<MemoryEvent, { type: 'page-embedding' }>

/** The events an engine sent, and a wait for the first one (seen or to come) that fits. */
class Events {
  readonly seen: MemoryEvent[] = []
  readonly #waiting: { fits: (e: MemoryEvent) => boolean; resolve: () => void }[] = []

  readonly listener = (event: MemoryEvent): void => {
    this.seen.push(event)
    for (const w of [...this.#waiting]) {
      if (!w.fits(event)) continue
      this.#waiting.splice(this.#waiting.indexOf(w), 1)
      w.resolve()
    }
  }

  /** The `page-embedding` events for `pageId`, in order. */
  progress(pageId: string): PageEmbedding[] {
    return this.seen.filter(
      (e): e is PageEmbedding => e.type === 'page-embedding' && e.pageId === pageId,
    )
  }

  /** Resolves at the event announcing `pageId` with every chunk embedded. */
  embedded(pageId: string): Promise<void> {
    const fits = (e: MemoryEvent) =>
      e.type === 'page-embedding' && e.pageId === pageId && e.done === e.total
    if (this.seen.some(fits)) return Promise.resolve()
    return new Promise((resolve) => this.#waiting.push({ fits, resolve }))
  }

  /** Resolves at the next page-embedding event for `pageId` with at least `done` chunks. */
  reached(pageId: string, done: number): Promise<void> {
    const fits = (e: MemoryEvent) =>
      e.type === 'page-embedding' && e.pageId === pageId && e.done >= done
    if (this.seen.some(fits)) return Promise.resolve()
    return new Promise((resolve) => this.#waiting.push({ fits, resolve }))
  }
}

/** A guide long enough for several backfill batches. */
const LONG = guide(40, 5)

describe('pages embedded in the background', () => {
  it('returns once the chunks are stored and found by keywords, before any is embedded', async () => {
    const gate = gated()
    const events = new Events()
    const memory = await engine({ embedder: gate, onEvent: events.listener })
    const text = guide(4).replace(
      '## Section 3\n\n',
      '## Section 3\n\nRotate the zephyrine key.\n\n',
    )
    const stored = await memory.pages.remember({ title: 'Agent guide', text })
    expect(stored).toMatchObject({ status: 'created', embedded: 0, pending: stored.chunks })
    expect(stored.chunks).toBeGreaterThan(4)
    expect(gate.passes).toBe(0)
    expect((await memory.inspect.stats()).pendingVectors).toBe(stored.chunks)

    const before = await memory.recall('zephyrine key')
    expect(before.hits[0]?.page?.pageId).toBe(stored.pageId)
    expect(before.hits[0]?.text).toContain('zephyrine')
    expect(before.hits[0]?.lists.keyword).toBeDefined()
    expect(before.hits[0]?.lists.vector).toBeUndefined()

    gate.open()
    await events.embedded(stored.pageId)
    const stats = await memory.inspect.stats()
    expect(stats.pendingVectors).toBe(0)
    expect(stats.vectors).toBe(stored.chunks)
    const after = await memory.recall('zephyrine key')
    expect(after.hits[0]?.page?.pageId).toBe(stored.pageId)
    expect(after.hits[0]?.lists.vector).toBeDefined()
    expect((await memory.inspect.verify()).ok).toBe(true)
  })

  it("announces a page's progress from none to all of its chunks, a batch at a time", async () => {
    const gate = gated()
    const events = new Events()
    const memory = await engine({ embedder: gate, onEvent: events.listener })
    const stored = await memory.pages.remember({ title: 'Long guide', text: LONG })
    expect(stored.chunks).toBeGreaterThan(2 * BACKFILL_BATCH)
    gate.open()
    await events.embedded(stored.pageId)
    const steps = events.progress(stored.pageId)
    expect(steps[0]).toEqual({
      type: 'page-embedding',
      pageId: stored.pageId,
      done: 0,
      total: stored.chunks,
    })
    expect(steps.at(-1)).toMatchObject({ done: stored.chunks, total: stored.chunks })
    expect(steps.length).toBe(1 + Math.ceil(stored.chunks / BACKFILL_BATCH))
    for (let i = 1; i < steps.length; i++) {
      expect(steps[i]!.done - steps[i - 1]!.done).toBeGreaterThan(0)
      expect(steps[i]!.done - steps[i - 1]!.done).toBeLessThanOrEqual(BACKFILL_BATCH)
    }
    const backfill = events.seen.filter((e) => e.type === 'backfill').at(-1)
    expect(backfill).toEqual({ type: 'backfill', done: stored.chunks, total: stored.chunks })
  })

  it('lets other writes through while a batch of chunks is being embedded', async () => {
    const gate = gated()
    gate.passThrough = (texts) => texts.length === 1
    const memory = await engine({ embedder: gate })
    const stored = await memory.pages.remember({ title: 'Long guide', text: LONG })
    await gate.held()
    // The backfill is inside its first batch's embed (the gate holds it): a write that had to
    // wait for the write lock behind it would never return.
    const fact = await memory.remember('The owner prefers metric units')
    expect(fact.status).toBe('created')
    const other = await memory.pages.remember({ title: 'Other', text: guide(1, 2, 9) })
    expect(other.status).toBe('created')
    expect(stored.pending).toBe(stored.chunks)
    expect(gate.passes).toBe(1)
    expect((await memory.inspect.stats()).pendingVectors).toBe(stored.chunks + other.chunks)
  })

  it('resumes embedding a page after a reload, from the chunks it had reached', async () => {
    const indexedDB = new IDBFactory()
    const name = 'resume-page'
    const gate = gated()
    const first = new Events()
    const a = await engine({
      name,
      indexedDB,
      IDBKeyRange,
      embedder: gate,
      onEvent: first.listener,
    })
    const stored = await a.pages.remember({ title: 'Long guide', text: LONG })
    gate.allow(BACKFILL_BATCH)
    await first.reached(stored.pageId, BACKFILL_BATCH)
    const closing = a.close()
    // The second batch waits at the gate; failing it lets the closing engine stop there.
    gate.fail()
    await closing
    expect(first.progress(stored.pageId).map((e) => e.done)).toEqual([0, BACKFILL_BATCH])

    const second = new Events()
    const b = await engine({ name, indexedDB, IDBKeyRange, onEvent: second.listener })
    await second.embedded(stored.pageId)
    const steps = second.progress(stored.pageId)
    expect(steps[0]).toMatchObject({ done: BACKFILL_BATCH, total: stored.chunks })
    expect(steps.at(-1)).toMatchObject({ done: stored.chunks, total: stored.chunks })
    expect((await b.inspect.stats()).pendingVectors).toBe(0)
    expect((await b.inspect.verify()).ok).toBe(true)
  })

  it("waits for the vectors with wait: 'vectors', so semantic recall finds the page at once", async () => {
    const events = new Events()
    const memory = await engine({ onEvent: events.listener })
    const text = guide(3)
    const stored = await memory.pages.remember({ title: 'Agent guide', text, wait: 'vectors' })
    expect(stored).toMatchObject({ embedded: stored.chunks, pending: 0 })
    expect((await memory.inspect.stats()).pendingVectors).toBe(0)
    const { hits } = await memory.recall('orchard meadow cedar', { mode: 'semantic' })
    expect(hits[0]?.page?.pageId).toBe(stored.pageId)
    expect(events.progress(stored.pageId)).toEqual([])
  })

  it('counts the chunks still waiting when the same page is remembered again', async () => {
    const gate = gated()
    const memory = await engine({ embedder: gate })
    const text = guide(3)
    const first = await memory.pages.remember({ title: 'Agent guide', text })
    const again = await memory.pages.remember({ title: 'Agent guide', text })
    expect(again).toEqual({ ...first, status: 'unchanged', embedded: 0, pending: first.chunks })
    gate.open()
  })

  it('refuses a wait it does not know, writing nothing', async () => {
    const memory = await engine()
    await expect(
      memory.pages.remember({ title: 'T', text: 'x', wait: 'keywords' as never }),
    ).rejects.toMatchObject({ code: 'BAD_OPTION', field: 'wait' })
    expect(await memory.count()).toBe(0)
  })
})

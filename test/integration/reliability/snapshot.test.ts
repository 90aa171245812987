/**
 * Stale or corrupt index snapshots: each is detected, set aside and rebuilt from the tables, and
 * the engine stays usable. Never a silent load (STYLE rule 7).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { EngramDatabase } from '../../../src/storage/index.ts'
import {
  expectVerified,
  fact,
  freshFactory,
  type Idb,
  openEngine,
  tally,
  writeTally,
} from './harness.ts'

afterAll(() => writeTally('snapshot'))

// biome-ignore lint/suspicious/noExplicitAny: surgery on a structured-clone blob
type Row = { seq: number; version: number; optionsHash: string; model: string | null; data: any }

const CASES: [string, (row: Row, db: EngramDatabase) => void | Promise<void>][] = [
  [
    'postings cut short',
    (row) => {
      row.data.keyword.postings = row.data.keyword.postings.slice(0, 5)
    },
  ],
  [
    'document ids cut short',
    (row) => {
      row.data.keyword.ids = JSON.stringify(JSON.parse(row.data.keyword.ids).slice(3))
    },
  ],
  [
    'vector codes cut short',
    (row) => {
      row.data.vector.codes = row.data.vector.codes.slice(0, row.data.vector.codes.length / 2)
    },
  ],
  [
    'vector ids cut short',
    (row) => {
      row.data.vector.ids = row.data.vector.ids.slice(1)
    },
  ],
  [
    'data truncated to a string',
    (row) => {
      row.data = '{"keyword":{"documentCount":12,"ind'
    },
  ],
  [
    'data missing',
    (row) => {
      row.data = null
    },
  ],
  [
    'keyword index of another database',
    (row) => {
      const ids: string[] = JSON.parse(row.data.keyword.ids)
      row.data.keyword.ids = JSON.stringify(ids.map((id) => `01OTHER${id}`))
    },
  ],
  [
    'wrong options hash',
    (row) => {
      row.optionsHash = 'deadbeef'
    },
  ],
  [
    'wrong model id',
    (row) => {
      row.model = 'Xenova/some-other-model'
    },
  ],
  [
    'older snapshot format',
    (row) => {
      row.version = 1
    },
  ],
  [
    'the format before tuple catalogue rows (5)',
    (row) => {
      row.version = 5
    },
  ],
  [
    'stamped past the end of the change log',
    (row) => {
      row.seq += 1000
    },
  ],
  [
    'stale behind a pruned change log',
    async (row, db) => {
      row.seq = 2
      await db.changes.where('seq').belowOrEqual(6).delete()
    },
  ],
]

async function tamper(
  name: string,
  idb: Idb,
  change: (row: Row, db: EngramDatabase) => void | Promise<void>,
) {
  const db = new EngramDatabase(name, idb)
  await db.open()
  const row = (await db.snapshots.get('indexes')) as unknown as Row
  expect(row).toBeDefined()
  await change(row, db)
  await db.snapshots.put(row as never)
  db.close()
}

describe('stale or corrupt snapshot', () => {
  let faults = 0
  let survived = 0
  let acknowledged = 0
  let lost = 0

  afterAll(() => {
    tally(
      {
        id: 'snapshot',
        fault: 'Stale or corrupt snapshot',
        injected: `the saved snapshot row edited between sessions: ${CASES.map(([c]) => c).join('; ')}`,
        expected:
          "detected (restored: 'rebuild'), set aside, rebuilt from the tables and saved afresh; every memory recallable; verify() ok",
      },
      { faults, survived, acknowledged, lost },
    )
  })

  it.each(CASES)('rebuilds from the tables when the snapshot has %s', async (label, change) => {
    const idb = freshFactory()
    const name = `snap-${label.replace(/\W+/g, '-')}`
    const a = await openEngine(name, idb)
    const texts = [...Array(12).keys()].map((i) => fact(i))
    const written = await a.rememberMany(
      texts.map((text, i) => ({ text, namespace: i % 3 === 0 ? 'work' : 'default' })),
    )
    await a.close()
    await tamper(name, idb, change)
    faults++

    const b = await openEngine(name, idb)
    expect((await b.inspect.stats()).open?.restored).toBe('rebuild')
    expectVerified(await b.inspect.verify())
    let missing = 0
    for (const [i, text] of texts.entries()) {
      const namespace = i % 3 === 0 ? 'work' : 'default'
      for (const mode of ['keyword', 'semantic'] as const) {
        const { hits } = await b.recall(text, { mode, k: 1, namespace, log: false })
        if (hits[0]?.id !== written[i]!.id) missing++
      }
    }
    acknowledged += texts.length
    lost += missing
    expect(missing).toBe(0)
    // Still usable, and the snapshot saved by the rebuild loads next time.
    const more = await b.remember(fact(50))
    await b.close()
    const c = await openEngine(name, idb)
    expect((await c.inspect.stats()).open?.restored).toBe('snapshot')
    expect(await c.get(more.id)).toBeDefined()
    expectVerified(await c.inspect.verify())
    await c.close()
    survived++
  })
})

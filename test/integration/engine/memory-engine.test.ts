import { afterEach, describe, expect, it } from 'vitest'
import {
  InvalidInputError,
  MemoryClosedError,
  MemoryNotFoundError,
} from '../../../src/core/errors.ts'
import { IDLE_SNAPSHOT_MS } from '../../../src/core/options.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { freshIdb, openTestEngine } from '../../helpers/engine.ts'

const open: MemoryEngine[] = []
async function engine(...args: Parameters<typeof openTestEngine>) {
  const e = await openTestEngine(...args)
  open.push(e)
  return e
}

afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((e) => e.close()))
})

const DEV_FACTS = [
  'Deploys go out through scripts/ship.sh after the smoke tests pass',
  'The login bug was in auth_handler.ts: it returned 401 for expired refresh tokens',
  'Never push with --no-verify; the pre-commit hook runs the type checker',
  'The staging database error was "ECONNRESET: socket hang up" from the pool',
  'The owner prefers metric units',
  'Priya is the owner’s sister-in-law and lives in Pune',
  'Ticket FH-2291 tracks the flaky upload test',
  'The ship date for version 2 moved to March',
  'Handlers for auth live in a separate package now',
  'Socket timeouts in the pool were raised to 30 seconds',
]

async function seeded() {
  const e = await engine()
  const results = await e.rememberMany(DEV_FACTS.map((text) => ({ text })))
  return { e, ids: results.map((r) => r.id) }
}

describe('MemoryEngine lexical recall', () => {
  it('ranks an exact file name first', async () => {
    const { e, ids } = await seeded()
    const { hits } = await e.recall('scripts/ship.sh')
    expect(hits[0]?.id).toBe(ids[0])
  })

  it('ranks an exact error substring in quotes first and keeps only memories containing it', async () => {
    const { e, ids } = await seeded()
    const { hits } = await e.recall('"ECONNRESET: socket hang up"')
    expect(hits[0]?.id).toBe(ids[3])
    for (const hit of hits) expect(hit.text.toLowerCase()).toContain('econnreset: socket hang up')
  })

  it('ranks a command flag first', async () => {
    const { e, ids } = await seeded()
    const { hits } = await e.recall('--no-verify')
    expect(hits[0]?.id).toBe(ids[2])
  })

  it('finds an identifier typed with spaces', async () => {
    const { e, ids } = await seeded()
    const { hits } = await e.recall('auth handler', { mode: 'keyword' })
    expect(hits[0]?.id).toBe(ids[1])
    expect(hits[0]?.via).toBe('kw')
  })

  it('explains each hit with its lists, terms and final rank', async () => {
    const { e, ids } = await seeded()
    const { hits } = await e.recall('metric units')
    const hit = hits.find((h) => h.id === ids[4])!
    expect(hit.via).toBe('both')
    expect(hit.lists.keyword?.rank).toBeGreaterThan(0)
    expect(hit.lists.vector?.rank).toBeGreaterThan(0)
    expect(hit.cosine).toBeGreaterThan(0.3)
    expect(hit.terms).toEqual(expect.arrayContaining(['metric']))
    expect(hit.explanation).toMatch(/matched \[.*metric.*\].*semantic .*fused .* -> #\d/)
  })

  it('skips explanations when asked', async () => {
    const { e } = await seeded()
    const { hits } = await e.recall('metric units', { explain: false })
    expect(hits[0]?.explanation).toBe('')
  })
})

describe('MemoryEngine dedup', () => {
  it('returns the existing id for the same text in another case and confirms it', async () => {
    const e = await engine()
    const first = await e.remember('The owner prefers metric units')
    const again = await e.remember('the OWNER prefers   metric units!')
    expect(again).toEqual({ id: first.id, status: 'duplicate', match: 'exact' })
    const stored = await e.get(first.id)
    expect(stored?.confirmations).toBe(2)
    expect(await e.count()).toBe(1)
  })

  it('returns the existing id for a near duplicate', async () => {
    const e = await engine()
    const embedder = new NgramEmbedder()
    const a =
      'The owner prefers metric units for every measurement in recipes, travel plans and the weekly shopping list'
    const b =
      'The owner prefers the metric units for every measurement in recipes, travel plans and the weekly shopping list'
    const [va, vb] = await embedder.embed([a, b], { kind: 'passage' })
    let cos = 0
    for (let i = 0; i < va!.length; i++) cos += va![i]! * vb![i]!
    expect(cos).toBeGreaterThanOrEqual(0.97)
    const first = await e.remember(a)
    const near = await e.remember(b)
    expect(near.id).toBe(first.id)
    expect(near.status).toBe('duplicate')
    expect(near.match).toBe('near')
    expect(near.similarity).toBeGreaterThanOrEqual(0.97)
  })

  it('stores a different fact separately', async () => {
    const e = await engine()
    const a = await e.remember('The owner prefers metric units')
    const b = await e.remember('The owner prefers imperial units for cooking')
    expect(b.status).toBe('created')
    expect(b.id).not.toBe(a.id)
  })

  it('dedups within one batch and gives every caller the right id', async () => {
    const e = await engine()
    const results = await Promise.all(
      ['alpha fact one', 'Alpha fact one', 'beta fact two', 'alpha fact one.'].map((t) =>
        e.remember(t),
      ),
    )
    expect(results[0]!.status).toBe('created')
    expect(results[1]!.id).toBe(results[0]!.id)
    expect(results[3]!.id).toBe(results[0]!.id)
    expect(results[2]!.id).not.toBe(results[0]!.id)
    expect(await e.count()).toBe(2)
    expect((await e.get(results[0]!.id))?.confirmations).toBe(3)
  })

  it('keeps the same text apart in different namespaces and types', async () => {
    const e = await engine()
    const a = await e.remember('deploy with care', { namespace: 'work' })
    const b = await e.remember('deploy with care', { namespace: 'home' })
    const c = await e.remember('deploy with care', { namespace: 'work', type: 'skill' })
    expect(new Set([a.id, b.id, c.id]).size).toBe(3)
  })
})

describe('MemoryEngine forget, update and verify', () => {
  it('leaves no trace of a forgotten memory in any table or index', async () => {
    const { e, ids } = await seeded()
    expect((await e.inspect.verify()).ok).toBe(true)
    await e.forget(ids[0]!)
    const report = await e.inspect.verify()
    expect(report.ok).toBe(true)
    expect(report.memories).toBe(DEV_FACTS.length - 1)
    expect(report.vectors).toBe(DEV_FACTS.length - 1)
    expect(report.keywordEntries).toBe(DEV_FACTS.length - 1)
    expect(report.vectorEntries).toBe(DEV_FACTS.length - 1)
    expect(await e.get(ids[0]!)).toBeUndefined()
    const { hits } = await e.recall('scripts/ship.sh')
    expect(hits.map((h) => h.id)).not.toContain(ids[0])
  })

  it('throws MemoryNotFoundError for an unknown id and changes nothing', async () => {
    const { e } = await seeded()
    await expect(e.forget('01NOPE')).rejects.toBeInstanceOf(MemoryNotFoundError)
    await expect(e.update('01NOPE', { tags: ['x'] })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await e.inspect.verify()).ok).toBe(true)
    expect(await e.count()).toBe(DEV_FACTS.length)
  })

  it('re-embeds and re-indexes on a text update', async () => {
    const { e, ids } = await seeded()
    const updated = await e.update(ids[4]!, {
      text: 'The owner prefers imperial units',
      tags: ['units'],
    })
    expect(updated.text).toBe('The owner prefers imperial units')
    expect((await e.inspect.verify()).ok).toBe(true)
    const { hits } = await e.recall('imperial', { mode: 'keyword' })
    expect(hits[0]?.id).toBe(ids[4])
    expect((await e.recall('metric', { mode: 'keyword' })).hits.map((h) => h.id)).not.toContain(
      ids[4],
    )
  })

  it('refuses an update whose text another memory already holds', async () => {
    const { e, ids } = await seeded()
    await expect(e.update(ids[4]!, { text: DEV_FACTS[0]! })).rejects.toMatchObject({
      code: 'DUPLICATE_TEXT',
    })
    expect((await e.get(ids[4]!))?.text).toBe(DEV_FACTS[4])
  })
})

describe('MemoryEngine persistence', () => {
  it('gives the same recall results after close and reopen, from the snapshot', async () => {
    const idb = freshIdb()
    const a = await MemoryEngine.open({ name: 'persist', ...idb, embedder: new NgramEmbedder() })
    await a.rememberMany(DEV_FACTS.map((text) => ({ text })))
    const before = await a.recall('auth handler bug', { log: false })
    await a.close()
    const b = await MemoryEngine.open({ name: 'persist', ...idb, embedder: new NgramEmbedder() })
    open.push(b)
    const after = await b.recall('auth handler bug', { log: false })
    // Scores may differ by the frequency boost the first recall earned; the fusion may not.
    expect(after.hits.map((h) => [h.id, h.fused])).toEqual(before.hits.map((h) => [h.id, h.fused]))
    expect((await b.inspect.stats()).open?.restored).toBe('snapshot')
    expect((await b.inspect.verify()).ok).toBe(true)
  })

  it('catches a stale snapshot up from the change log', async () => {
    const idb = freshIdb()
    const a = await MemoryEngine.open({
      name: 'stale',
      ...idb,
      embedder: new NgramEmbedder(),
      snapshotEvery: 1_000_000,
    })
    await a.rememberMany(DEV_FACTS.slice(0, 5).map((text) => ({ text })))
    await a.close() // snapshot covers five facts
    const b = await MemoryEngine.open({
      name: 'stale',
      ...idb,
      embedder: new NgramEmbedder(),
      snapshotEvery: 1_000_000,
    })
    const added = await b.rememberMany(DEV_FACTS.slice(5).map((text) => ({ text })))
    const gone = (await b.list({ limit: 100 })).items.find((m) => m.text === DEV_FACTS[0])!
    await b.forget(gone.id)
    // Simulate a crash: drop the engine without close(), so no new snapshot is written.
    const c = await MemoryEngine.open({ name: 'stale', ...idb, embedder: new NgramEmbedder() })
    open.push(c, b)
    const stats = await c.inspect.stats()
    expect(stats.open?.restored).toBe('snapshot')
    expect(stats.open?.replayed).toBeGreaterThanOrEqual(6)
    expect((await c.inspect.verify()).ok).toBe(true)
    const { hits } = await c.recall('FH-2291', { mode: 'keyword' })
    expect(hits[0]?.id).toBe(added[1]!.id)
    expect(
      (await c.recall('scripts/ship.sh', { mode: 'keyword' })).hits.map((h) => h.id),
    ).not.toContain(gone.id)
  })

  it('snapshots once writes pause, so a tab killed without close restarts from it', async () => {
    const idb = freshIdb()
    const a = await MemoryEngine.open({ name: 'idle', ...idb, embedder: new NgramEmbedder() })
    open.push(a)
    await a.rememberMany(DEV_FACTS.map((text) => ({ text })))
    await new Promise((r) => setTimeout(r, IDLE_SNAPSHOT_MS + 500))
    const b = await MemoryEngine.open({ name: 'idle', ...idb, embedder: new NgramEmbedder() })
    open.push(b)
    expect((await b.inspect.stats()).open).toMatchObject({ restored: 'snapshot', replayed: 0 })
  })

  it('rebuilds a snapshot made with other options instead of loading it', async () => {
    const idb = freshIdb()
    const a = await MemoryEngine.open({ name: 'opts', ...idb, embedder: new NgramEmbedder() })
    await a.rememberMany(DEV_FACTS.map((text) => ({ text })))
    await a.close()
    const b = await MemoryEngine.open({
      name: 'opts',
      ...idb,
      embedder: new NgramEmbedder(),
      keyword: { boost: { text: 1, aliases: 3, tags: 1 } },
    })
    open.push(b)
    expect((await b.inspect.stats()).open?.restored).toBe('rebuild')
    expect((await b.inspect.verify()).ok).toBe(true)
    expect((await b.recall('--no-verify')).hits[0]?.text).toBe(DEV_FACTS[2])
  })
})

describe('MemoryEngine filters, boosts and logs', () => {
  it('filters by namespace, type and tag', async () => {
    const e = await engine()
    await e.remember('deploy on fridays is banned', { namespace: 'work', tags: ['deploy'] })
    await e.remember('deploy the garden lights', { namespace: 'home' })
    const skill = await e.remember('deploy with scripts/ship.sh', {
      namespace: 'work',
      type: 'skill',
    })
    const work = await e.recall('deploy', { namespace: 'work' })
    expect(work.hits.every((h) => h.memory.namespace === 'work')).toBe(true)
    expect(work.hits).toHaveLength(2)
    const skills = await e.recall('deploy', { namespace: 'work', types: ['skill'] })
    expect(skills.hits.map((h) => h.id)).toEqual([skill.id])
    const tagged = await e.recall('deploy', { namespace: 'work', tags: ['deploy'] })
    expect(tagged.hits).toHaveLength(1)
  })

  it('finds a memory by exact alias and by a tag named in the query', async () => {
    const e = await engine()
    const a = await e.remember('Priya is the owner’s sister-in-law', { aliases: ['Pri'] })
    const t = await e.remember('Water the ficus every Sunday', { tags: ['plants'] })
    const byAlias = await e.recall('pri', { mode: 'keyword' })
    expect(byAlias.hits[0]?.id).toBe(a.id)
    expect(byAlias.hits[0]?.lists.alias?.rank).toBe(1)
    const byTag = await e.recall('plants', { mode: 'keyword' })
    expect(byTag.hits[0]?.id).toBe(t.id)
    expect(byTag.hits[0]?.lists.tag).toBeDefined()
  })

  it('boosts a recently confirmed memory over an equal older one', async () => {
    let now = Date.UTC(2026, 0, 1)
    // A TTL long enough that 90 days neither expire nor decay the older one: recency alone.
    const e = await engine({ clock: () => now, lifecycle: { ttlDays: { semantic: 1e9 } } })
    const old = await e.remember('the blue notebook is in the desk')
    now += 90 * 86_400_000
    const fresh = await e.remember('the blue notebook is in the car')
    const { hits } = await e.recall('blue notebook', { mode: 'keyword' })
    expect(hits[0]?.id).toBe(fresh.id)
    expect(hits[0]?.boosts).toEqual([{ name: 'recency', factor: 1.2 }])
    expect(hits.find((h) => h.id === old.id)?.boosts).toEqual([])
  })

  it('keeps a bounded recall log that can be read and cleared', async () => {
    const e = await engine({ recallLogSize: 3 })
    await e.remember('The owner prefers metric units')
    for (const q of ['units', 'metric', 'owner', 'prefers']) await e.recall(q)
    const log = await e.inspect.recallLog()
    expect(log.map((l) => l.query)).toEqual(['prefers', 'owner', 'metric'])
    expect(log[0]?.hits[0]?.explanation).toMatch(/matched/)
    await e.inspect.clearRecallLog()
    expect(await e.inspect.recallLog()).toEqual([])
  })

  it('answers keyword-only, labelled degraded, without an embedder', async () => {
    const e = await engine({ embedder: null })
    await e.remember('The owner prefers metric units')
    const result = await e.recall('metric units')
    expect(result.degraded).toBe('no-embedder')
    expect(result.hits[0]?.via).toBe('kw')
    await expect(e.recall('metric', { mode: 'semantic' })).rejects.toMatchObject({
      name: 'EmbedderUnavailableError',
    })
  })
})

describe('MemoryEngine list, count, export and import', () => {
  it('pages through memories newest first', async () => {
    const { e } = await seeded()
    const first = await e.list({ limit: 4 })
    const second = await e.list({ limit: 4, cursor: first.cursor! })
    const third = await e.list({ limit: 4, cursor: second.cursor! })
    const all = [...first.items, ...second.items, ...third.items].map((m) => m.text)
    expect(all).toEqual([...DEV_FACTS].reverse())
    expect(third.cursor).toBeUndefined()
  })

  it('round-trips an export into another memory, vectors included', async () => {
    const { e } = await seeded()
    const jsonl = await e.transfer.export({ vectors: true })
    const header = JSON.parse(jsonl.split('\n')[0]!)
    expect(header).toMatchObject({
      format: 'engram',
      version: 1,
      model: 'engram/ngram-hash',
      dims: 384,
    })
    const other = await engine()
    const report = await other.transfer.import(jsonl)
    expect(report).toMatchObject({
      lines: DEV_FACTS.length,
      created: DEV_FACTS.length,
      duplicates: 0,
    })
    expect((await other.inspect.verify()).ok).toBe(true)
    const again = await other.transfer.import(jsonl)
    expect(again.duplicates).toBe(DEV_FACTS.length)
    expect(await other.count()).toBe(DEV_FACTS.length)
  })

  it('rejects an import with a bad line, naming it, and stores nothing', async () => {
    const e = await engine()
    const jsonl = '{"text":"fine line"}\n{"text":"also fine"}\n{"text": 42}\n'
    await expect(e.transfer.import(jsonl)).rejects.toMatchObject({
      name: 'ImportFormatError',
      line: 3,
    })
    expect(await e.count()).toBe(0)
  })
})

describe('MemoryEngine bad input', () => {
  it.each([
    ['empty text', (e: MemoryEngine) => e.remember('   '), 'EMPTY_TEXT'],
    ['oversize text', (e: MemoryEngine) => e.remember('x'.repeat(9000)), 'TEXT_TOO_LONG'],
    ['a lone surrogate', (e: MemoryEngine) => e.remember('bad \ud800 text'), 'LONE_SURROGATE'],
    [
      'a control character',
      (e: MemoryEngine) => e.remember('bell \u0007 here'),
      'CONTROL_CHARACTER',
    ],
    [
      'a non-string tag',
      (e: MemoryEngine) => e.remember('ok', { tags: ['a', 3 as never] }),
      'BAD_OPTION',
    ],
    [
      'a wrong-dimension vector',
      (e: MemoryEngine) => e.remember('ok', { vector: new Float32Array(3) }),
      'BAD_VECTOR',
    ],
    [
      'a NaN vector',
      (e: MemoryEngine) => e.remember('ok', { vector: new Float32Array(384).fill(Number.NaN) }),
      'BAD_VECTOR',
    ],
    ['an absurd k', (e: MemoryEngine) => e.recall('ok', { k: 10_000 }), 'BAD_OPTION'],
    [
      'an unknown mode',
      (e: MemoryEngine) => e.recall('ok', { mode: 'psychic' as never }),
      'BAD_OPTION',
    ],
    [
      'a bad item in a batch',
      (e: MemoryEngine) => e.rememberMany([{ text: 'fine' }, { text: '' }]),
      'EMPTY_TEXT',
    ],
  ])('rejects %s with a typed error and writes nothing', async (_name, call, code) => {
    const e = await engine()
    await expect(call(e)).rejects.toBeInstanceOf(InvalidInputError)
    await expect(call(e)).rejects.toMatchObject({ code })
    expect(await e.count()).toBe(0)
    expect((await e.inspect.verify()).ok).toBe(true)
  })

  it('rejects every call after close with MemoryClosedError', async () => {
    const e = await openTestEngine()
    await e.close()
    await expect(e.remember('late')).rejects.toBeInstanceOf(MemoryClosedError)
    await expect(e.recall('late')).rejects.toBeInstanceOf(MemoryClosedError)
  })
})

/**
 * The cosine at which sync folds near duplicates two devices wrote independently: the local
 * model's (`nearDuplicateFor`: USE 0.95, n-gram 0.97) unless the caller sets `nearDuplicate`.
 * Against a real CouchDB-protocol server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { USE_LITE_MODEL } from '../../../src/embedder/model-table.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { startSync } from '../../../src/sync/index.ts'
import { Pouch } from '../../../src/sync/pouch.ts'
import { CouchServer } from '../../helpers/couch-server.ts'
import { openTestEngine } from '../../helpers/engine.ts'
import { testKey } from './sync-helpers.ts'

// The n-gram embedder's cosine of these two is 0.967: a near duplicate at USE's 0.95, not at
// the n-gram's own 0.97.
const FIRST = 'The owner prefers metric units for every measurement'
const SECOND = 'The owner prefers the metric units for every measurement'

let server: CouchServer
let dbs = 0
beforeAll(async () => {
  server = await CouchServer.start()
})
afterAll(async () => {
  await server?.close()
})

/** The n-gram embedder's vectors under USE's model id, so the engine takes USE's threshold. */
function namedUse(): NgramEmbedder {
  const embedder = new NgramEmbedder()
  Object.defineProperty(embedder, 'model', { value: USE_LITE_MODEL })
  return embedder
}

/**
 * A writes FIRST and syncs up; B writes SECOND and syncs once: how many near duplicates B's sync
 * folded (the engine's backfill may merge later by its own rules; this counts sync's folds).
 */
async function foldsOnB(embedder: () => NgramEmbedder, nearDuplicate?: number): Promise<number> {
  const url = server.url(`near-${++dbs}`)
  const key = await testKey()
  const engines: MemoryEngine[] = []
  try {
    for (const text of [FIRST, SECOND]) {
      const engine = await openTestEngine({ embedder: embedder() })
      engines.push(engine)
      await engine.remember(text)
      const mirror = new Pouch(`near-mirror-${dbs}-${engines.length}`, { adapter: 'memory' })
      const options = { url, key, mirror, live: false, ...(nearDuplicate ? { nearDuplicate } : {}) }
      const status = await (await startSync(engine, options)).done
      expect(status.state).toBe('complete')
      if (engines.length === 2) return status.nearDuplicates
    }
    throw new Error('unreachable')
  } finally {
    await Promise.allSettled(engines.map((e) => e.close()))
  }
}

describe('near-duplicate folding in sync', () => {
  it('takes the threshold of the local model: 0.95 for USE folds what 0.97 for n-grams keeps', async () => {
    expect(await foldsOnB(namedUse)).toBe(1)
    expect(await foldsOnB(() => new NgramEmbedder())).toBe(0)
  })

  it('lets the caller’s nearDuplicate override the model’s threshold', async () => {
    expect(await foldsOnB(namedUse, 0.99)).toBe(0)
    expect(await foldsOnB(() => new NgramEmbedder(), 0.9)).toBe(1)
  })
})

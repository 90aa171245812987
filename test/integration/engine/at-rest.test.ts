import { describe, expect, it } from 'vitest'
import { EncryptionError, MemoryLockedError } from '../../../src/core/errors.ts'
import type { AtRestSecret } from '../../../src/core/types.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { callMethod, MEMORY_METHOD_PATHS } from '../../../src/host/protocol.ts'
import { closingEngines } from '../../helpers/engine.ts'
import { eventually } from '../../helpers/eventually.ts'
import { bytesOccur, numericArraysIn, rawRows, sharedIdb, textsIn } from './at-rest-helpers.ts'

const engine = closingEngines()
// An app key keeps the tests fast: a passphrase costs 600 000 PBKDF2 rounds per derivation.
const SECRET: AtRestSecret = {
  key: await crypto.subtle.importKey('raw', new Uint8Array(32).fill(42), 'HKDF', false, [
    'deriveKey',
  ]),
}
const PASSPHRASE: AtRestSecret = { passphrase: 'correct horse battery staple' }

const FACTS = [
  { text: 'The owner prefers metric units for every recipe', tags: ['cooking-secret'] },
  { text: 'Quarterly revenue target is 4.2 million euros', tags: ['finance-hidden'] },
  { text: 'The staging database password rotates on Fridays', tags: ['ops-private'] },
]
const QUERY = 'which units does the owner prefer'

async function seeded(name: string, env = sharedIdb(), encryption: AtRestSecret | null = SECRET) {
  const e = await engine({ name, ...env, ...(encryption ? { encryption } : {}) })
  const ids: string[] = []
  for (const f of FACTS) {
    const r = await e.remember(f.text, {
      tags: f.tags,
      summary: `summary of ${f.tags[0]}`,
      meta: { speaker: `speaker-${f.tags[0]}` },
      aliases: [`alias-${f.tags[0]}`],
      source: `https://source.example/${f.tags[0]}`,
    })
    ids.push(r.id)
  }
  await e.recall(QUERY)
  return { e, env, ids }
}

/** Waits until the recall log holds `n` entries (it is written off the answer path). */
function logged(e: MemoryEngine, n: number): Promise<void> {
  return eventually(async () => (await e.inspect.recallLog()).length >= n, `${n} recalls logged`)
}

const SECRETS_ON_DISK = [
  ...FACTS.flatMap((f) => [f.text, f.text.toLowerCase(), ...f.tags]),
  'metric units',
  'summary of',
  'speaker-',
  'alias-',
  'source.example',
  QUERY,
  'prefer',
]

describe('encryption at rest', () => {
  it('stores none of the texts, tags, summaries, meta, sources, queries or vectors in the clear', async () => {
    const { e, env } = await seeded('sealed')
    await logged(e, 1)
    await e.close()
    const rows = await rawRows(env, 'sealed')
    expect(rows.memories).toHaveLength(3)
    expect(rows.snapshots!.length).toBeGreaterThan(0)
    expect(rows.recalls).toHaveLength(1)
    const texts = textsIn(rows).join('\n').toLowerCase()
    for (const secret of SECRETS_ON_DISK) expect(texts).not.toContain(secret.toLowerCase())
    expect(numericArraysIn(rows)).toEqual([])
    const [probe] = await new NgramEmbedder().embed([FACTS[0]!.text], { kind: 'passage' })
    expect(bytesOccur(rows, new Uint8Array(probe!.buffer, probe!.byteOffset, 16))).toBe(false)
  })

  it('leaves the same probes findable in an unencrypted memory (the probes can fail)', async () => {
    const { e, env } = await seeded('plain', sharedIdb(), null)
    await logged(e, 1)
    await e.close()
    const rows = await rawRows(env, 'plain')
    const texts = textsIn(rows).join('\n').toLowerCase()
    for (const f of FACTS) expect(texts).toContain(f.text.toLowerCase())
    expect(texts).toContain(QUERY)
    expect(numericArraysIn(rows).length).toBeGreaterThan(0)
    const [probe] = await new NgramEmbedder().embed([FACTS[0]!.text], { kind: 'passage' })
    expect(bytesOccur(rows, new Uint8Array(probe!.buffer, probe!.byteOffset, 16))).toBe(true)
  })

  it('gives everything back after a reopen with the same passphrase, from the snapshot', async () => {
    const { e, env, ids } = await seeded('reopen', sharedIdb(), PASSPHRASE)
    const before = await Promise.all(ids.map((id) => e.get(id)))
    await e.close()
    const again = await engine({ name: 'reopen', ...env, encryption: PASSPHRASE })
    const after = await Promise.all(ids.map((id) => again.get(id)))
    // Only the recall counters moved: close() flushed the one recall's.
    const still = (m: unknown) => ({ ...(m as object), recallCount: 0, lastRecalledAt: 0 })
    expect(after.map(still)).toEqual(before.map(still))
    expect((await again.inspect.stats()).open?.restored).toBe('snapshot')
    expect((await again.inspect.stats()).atRest).toBe('unlocked')
    expect(await again.inspect.verify()).toMatchObject({ ok: true, memories: 3, vectors: 3 })
    const hits = await again.recall('metric units', { k: 1 })
    expect(hits.hits[0]?.id).toBe(ids[0])
  })

  it('refuses a wrong passphrase or none with a typed error, and changes nothing', async () => {
    const { e, env, ids } = await seeded('wrong')
    await e.close()
    const before = await rawRows(env, 'wrong')
    await expect(
      engine({ name: 'wrong', ...env, encryption: { passphrase: 'nope' } }),
    ).rejects.toMatchObject({
      name: 'EncryptionError',
      code: 'WRONG_KEY',
    })
    await expect(engine({ name: 'wrong', ...env })).rejects.toMatchObject({ code: 'KEY_REQUIRED' })
    expect(await rawRows(env, 'wrong')).toEqual(before)
    const right = await engine({ name: 'wrong', ...env, encryption: SECRET })
    expect((await right.get(ids[1]!))?.text).toBe(FACTS[1]!.text)
  })

  it('refuses every call but unlock, close and stats while locked, then recalls again after unlock', async () => {
    const { e, ids } = await seeded('locking')
    await e.atRest.lock()
    const open = new Set(['atRest.unlock', 'close', 'inspect.stats', 'atRest.lock'])
    for (const method of MEMORY_METHOD_PATHS.filter((m) => !open.has(m))) {
      await expect(callMethod(e, method, ['x', {}]), method).rejects.toBeInstanceOf(
        MemoryLockedError,
      )
    }
    const stats = await e.inspect.stats()
    expect(stats).toMatchObject({ atRest: 'locked', memories: 3, keywordEntries: 0 })
    await expect(e.atRest.unlock({ passphrase: 'guess' })).rejects.toMatchObject({
      code: 'WRONG_KEY',
    })
    await expect(e.recall(QUERY)).rejects.toMatchObject({ code: 'LOCKED' })
    await e.atRest.unlock(SECRET)
    const result = await e.recall('metric units', { k: 1 })
    expect(result.hits[0]?.id).toBe(ids[0])
    expect((await e.inspect.stats()).keywordEntries).toBe(3)
    expect(await e.inspect.verify()).toMatchObject({ ok: true, memories: 3 })
  })

  it('unlocks the writes another tab made while this one was locked', async () => {
    const { e, env } = await seeded('two-tabs')
    const other = await engine({ name: 'two-tabs', ...env, encryption: SECRET })
    await e.atRest.lock()
    const { id } = await other.remember('Written in the other tab meanwhile')
    await e.atRest.unlock(SECRET)
    expect((await e.get(id))?.text).toBe('Written in the other tab meanwhile')
    expect((await e.recall('other tab meanwhile', { k: 1 })).hits[0]?.id).toBe(id)
  })

  it('refuses a write made while locked and stores nothing of it', async () => {
    const { e, env } = await seeded('locked-write')
    await e.atRest.lock()
    const before = await rawRows(env, 'locked-write')
    await expect(e.remember('A secret written while locked')).rejects.toBeInstanceOf(
      MemoryLockedError,
    )
    await expect(e.rememberMany([{ text: 'Another one' }])).rejects.toBeInstanceOf(
      MemoryLockedError,
    )
    expect(await rawRows(env, 'locked-write')).toEqual(before)
    await e.atRest.unlock(SECRET)
    expect(await e.count()).toBe(3)
  })

  it('still finds exact duplicates by the hashed key, before and after a reopen', async () => {
    const { e, env, ids } = await seeded('dedup')
    const again = await e.remember(`  ${FACTS[0]!.text}  `)
    expect(again).toMatchObject({ id: ids[0], status: 'duplicate' })
    await e.close()
    const reopened = await engine({ name: 'dedup', ...env, encryption: SECRET })
    expect(await reopened.remember(FACTS[1]!.text)).toMatchObject({
      id: ids[1],
      status: 'duplicate',
    })
    // The update path asks the unique index itself (`[namespace+type+key]`) for a clash.
    await expect(reopened.update(ids[2]!, { text: FACTS[0]!.text })).rejects.toMatchObject({
      code: 'DUPLICATE_TEXT',
    })
    expect(await reopened.count()).toBe(3)
  })

  it('exports plaintext JSONL while unlocked', async () => {
    const { e } = await seeded('export')
    const jsonl = await e.transfer.export()
    for (const f of FACTS) expect(jsonl).toContain(f.text)
    expect(jsonl).toContain('cooking-secret')
  })

  it('opens with an HKDF key the app supplies instead of a passphrase', async () => {
    const raw = globalThis.crypto.getRandomValues(new Uint8Array(32))
    const key = await crypto.subtle.importKey('raw', raw, 'HKDF', false, ['deriveKey'])
    const env = sharedIdb()
    const e = await engine({ name: 'app-key', ...env, encryption: { key } })
    const { id } = await e.remember('Kept under the app key')
    await e.close()
    const other = await crypto.subtle.importKey('raw', new Uint8Array(32), 'HKDF', false, [
      'deriveKey',
    ])
    await expect(
      engine({ name: 'app-key', ...env, encryption: { key: other } }),
    ).rejects.toMatchObject({ code: 'WRONG_KEY' })
    const again = await engine({ name: 'app-key', ...env, encryption: { key } })
    expect((await again.get(id))?.text).toBe('Kept under the app key')
  })

  it('will not encrypt a memory that already holds plain rows, and leaves them readable', async () => {
    const { e, env, ids } = await seeded('was-plain', sharedIdb(), null)
    await e.close()
    await expect(engine({ name: 'was-plain', ...env, encryption: SECRET })).rejects.toBeInstanceOf(
      EncryptionError,
    )
    const plain = await engine({ name: 'was-plain', ...env })
    expect((await plain.get(ids[0]!))?.text).toBe(FACTS[0]!.text)
    await expect(plain.atRest.lock()).rejects.toMatchObject({ code: 'NOT_ENCRYPTED' })
  })
})

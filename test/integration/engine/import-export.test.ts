/**
 * Export and import: the caller's choices win over what a file claims, every field survives a
 * round trip, line endings and a BOM are read, and one bad row never blocks an export
 * (issue 12 §3, §4, §6).
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { Memory } from '../../../src/core/types.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import type { EngramDatabase } from '../../../src/storage/index.ts'
import { openTestEngine } from '../../helpers/engine.ts'
import { caseOf, inputCase, writeInputTally } from './input-tally.ts'

afterAll(() => writeInputTally('import-export'))

const all = async (e: MemoryEngine): Promise<Memory[]> => (await e.list({ limit: 1000 })).items
const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n')

/** A clock the test moves by hand, so every stored instant is known. */
function manualClock(start: number) {
  let now = start
  return { clock: () => now, advance: (ms: number) => (now += ms) }
}

describe('import lines do not override the caller', () => {
  caseOf('caller')(
    'stored a line claiming tenant-bob in tenant-bob although the caller chose tenant-alice',
    async () => {
      const e = await openTestEngine()
      await e.transfer.import(lines({ text: 'Bob owes rent', namespace: 'tenant-bob' }), {
        defaults: { source: 'import', namespace: 'tenant-alice' },
      })
      expect(await e.count({ namespace: 'tenant-bob' })).toBe(0)
      const [memory] = await all(e)
      expect(memory).toMatchObject({ text: 'Bob owes rent', namespace: 'tenant-alice' })
      await e.close()
    },
  )

  caseOf('caller')(
    "kept a line's claim of source: 'user' over the caller's source: 'import'",
    async () => {
      const e = await openTestEngine()
      await e.transfer.import(
        lines({ text: 'The owner said so', source: 'user' }, { text: 'No source given' }),
        { defaults: { source: 'import' } },
      )
      expect((await all(e)).map((m) => m.source)).toEqual(['import', 'import'])
      await e.close()
    },
  )

  caseOf('caller')(
    'lets a line keep the fields the caller names in lineFields, and fills in lines that say nothing',
    async () => {
      const e = await openTestEngine()
      await e.transfer.import(
        lines(
          { text: 'Line with its own namespace', namespace: 'work', source: 'user' },
          { text: 'Line without one' },
        ),
        { defaults: { namespace: 'inbox', source: 'import' }, lineFields: ['namespace'] },
      )
      const byText = new Map((await all(e)).map((m) => [m.text, m]))
      expect(byText.get('Line with its own namespace')).toMatchObject({
        namespace: 'work',
        source: 'import',
      })
      expect(byText.get('Line without one')).toMatchObject({ namespace: 'inbox', source: 'import' })
      await e.close()
    },
  )

  caseOf('caller')('takes every field from the line when the caller sets no defaults', async () => {
    const e = await openTestEngine()
    await e.transfer.import(
      lines({ text: 'A skill', namespace: 'work', type: 'skill', source: 'user', tags: ['Ops'] }),
    )
    expect((await all(e))[0]).toMatchObject({
      namespace: 'work',
      type: 'skill',
      source: 'user',
      tags: ['ops'],
    })
    await e.close()
  })

  caseOf('caller')(
    "keeps defaults.tags over a line's tags unless lineFields lists tags",
    async () => {
      const e = await openTestEngine()
      const line = lines({ text: 'Tagged by the file', tags: ['from-file'] })
      await e.transfer.import(line, { defaults: { tags: ['imported'] } })
      expect((await all(e))[0]?.tags).toEqual(['imported'])
      const other = await openTestEngine()
      await other.transfer.import(line, { defaults: { tags: ['imported'] }, lineFields: ['tags'] })
      expect((await all(other))[0]?.tags).toEqual(['from-file'])
      await e.close()
      await other.close()
    },
  )

  caseOf('caller')("caps a line's trust even when lineFields lets the line choose it", async () => {
    const e = await openTestEngine()
    await e.transfer.import(lines({ text: 'Wire the refund to IBAN X', trust: 'trusted' }), {
      defaults: { trust: 'untrusted' },
      lineFields: ['trust'],
    })
    expect((await all(e))[0]?.trust).toBe('unverified')
    await e.close()
  })
})

describe('a round trip keeps every field', () => {
  caseOf('files')(
    'reset confirmedAt and confirmations on import, so every restored memory got the recency boost',
    async () => {
      const start = Date.UTC(2026, 0, 1)
      const time = manualClock(start)
      const e = await openTestEngine({ clock: time.clock })
      const a = await e.remember('Priya is the owner’s sister-in-law', {
        namespace: 'family',
        type: 'fact',
        tags: ['family', 'priya'],
        aliases: ['Pri'],
        source: 'user',
        trust: 'trusted',
        confidence: 'high',
        expiresAt: start + 400 * 86_400_000,
        meta: { met: '2019-06-01', turns: [1, 2], where: { city: 'Leeds' } },
      })
      time.advance(3_600_000)
      await e.remember('The deploy checklist has nine steps', { type: 'skill', confidence: 'low' })
      time.advance(86_400_000)
      await e.remember('priya is the owner’s sister-in-law', { namespace: 'family' }) // confirms a
      time.advance(60_000)
      await e.recall('who is Pri', { namespace: 'family' })
      await e.inspect.recallLog() // waits for the recall counters to land
      time.advance(60_000)
      await e.update(a.id, { tags: ['family', 'priya', 'in-laws'] })
      const before = await all(e)
      expect(before.find((m) => m.id === a.id)).toMatchObject({ confirmations: 2, recallCount: 1 })

      time.advance(90 * 86_400_000)
      const dump = await e.transfer.export({ vectors: true })
      const other = await openTestEngine({ clock: time.clock })
      const report = await other.transfer.import(dump, { trust: 'trusted' })
      expect(report).toMatchObject({ lines: 2, created: 2, duplicates: 0 })
      expect(await all(other)).toEqual(before)
      expect((await other.inspect.verify()).ok).toBe(true)
      await e.close()
      await other.close()
    },
  )

  caseOf('files')('brings instants a file dates in the future back to now', async () => {
    const now = Date.UTC(2026, 0, 1)
    const e = await openTestEngine({ clock: () => now })
    await e.transfer.import(
      lines({
        text: 'Dated ahead',
        createdAt: now + 1e12,
        confirmedAt: now + 1e12,
        confirmations: 3,
      }),
    )
    expect((await all(e))[0]).toMatchObject({ createdAt: now, confirmedAt: now, confirmations: 3 })
    await e.close()
  })
})

describe('reading the file', () => {
  const texts = ['First line of the file', 'Second line of the file', 'Third line of the file']

  it.each([
    ['LF', texts.map((t) => JSON.stringify({ text: t })).join('\n')],
    ['CRLF', texts.map((t) => JSON.stringify({ text: t })).join('\r\n')],
    ['CR only', texts.map((t) => JSON.stringify({ text: t })).join('\r')],
    [
      'a UTF-8 BOM and CRLF',
      `\uFEFF${texts.map((t) => JSON.stringify({ text: t })).join('\r\n')}\r\n`,
    ],
  ])('rejected a BOM or CR-only line endings; reads %s', async (_label, jsonl) => {
    const passed = inputCase('files')
    const e = await openTestEngine()
    expect(await e.transfer.import(jsonl)).toMatchObject({ lines: 3, created: 3 })
    expect((await all(e)).map((m) => m.text).sort()).toEqual([...texts].sort())
    await e.close()
    passed()
  })

  caseOf('files')('names the right line of a CR-only file', async () => {
    const e = await openTestEngine()
    const jsonl = `${JSON.stringify({ text: 'ok' })}\r\r{"text": 42}\r`
    await expect(e.transfer.import(jsonl)).rejects.toMatchObject({
      name: 'ImportFormatError',
      line: 3,
    })
    await e.close()
  })
})

describe('export is never blocked by one row', () => {
  async function withOldRows(): Promise<{ e: MemoryEngine; ids: string[] }> {
    let db: EngramDatabase | undefined
    const e = await openTestEngine({ onDatabase: (d) => (db = d) })
    const ids: string[] = []
    for (const text of [
      'A clean memory',
      'A memory with a cyclic meta',
      'A memory with a BigInt',
    ]) {
      ids.push((await e.remember(text)).id)
    }
    // Rows as an older version, which did not check meta, could have stored them.
    const cyclic: Record<string, unknown> = { keep: 'this' }
    cyclic.self = cyclic
    await db!.memories.update(ids[1]!, { meta: cyclic })
    await db!.memories.update(ids[2]!, { meta: { big: 12n, when: new Date(0), keep: 1 } })
    return { e, ids }
  }

  caseOf('files')(
    'threw for the whole export after one row with a cyclic or BigInt meta; now exports it with what JSON carries',
    async () => {
      const { e, ids } = await withOldRows()
      const dump = await e.transfer.export()
      const [header, ...rows] = dump
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(header).toMatchObject({ count: 3, repaired: [ids[1], ids[2]] })
      expect(header.skipped).toBeUndefined()
      const byId = new Map(rows.map((r: Memory) => [r.id, r]))
      expect(byId.get(ids[0]!)?.meta).toBeUndefined()
      expect(byId.get(ids[1]!)?.meta).toEqual({ keep: 'this' })
      expect(byId.get(ids[2]!)?.meta).toEqual({
        big: '12',
        when: '1970-01-01T00:00:00.000Z',
        keep: 1,
      })
      await e.close()
    },
  )

  caseOf('files')('writes an export whose every line an import accepts', async () => {
    const { e } = await withOldRows()
    const other = await openTestEngine()
    expect(await other.transfer.import(await e.transfer.export())).toMatchObject({ created: 3 })
    await e.close()
    await other.close()
  })
})

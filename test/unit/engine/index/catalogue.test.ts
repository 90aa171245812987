import { describe, expect, it } from 'vitest'
import type { Memory } from '../../../../src/core/types.ts'
import { Catalogue } from '../../../../src/engine/index/catalogue.ts'
import { DedupKeys } from '../../../../src/engine/index/dedup-keys.ts'
import { Interned } from '../../../../src/engine/index/interned.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'
import { row } from '../fixtures.ts'

const pick = <T>(next: () => number, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)]!

/** A row with a seeded mix of every field a memory may carry, and some no column expects. */
function randomRow(next: () => number, id: string): Memory {
  const fields: Partial<Memory> & Record<string, unknown> = {
    namespace: pick(next, ['default', 'work', 'home']),
    type: pick(next, ['fact', 'skill', 'log', 'page', 'recipe']),
    tags: pick(next, [[], [], ['plants'], ['plants', 'home'], ['Work']]),
    aliases: pick(next, [[], [], [], [`A-${id}`], ['Pri', 'Priya']]),
    source: pick(next, ['agent', 'user', 'import', `https://example.com/${id}`]),
    trust: pick(next, ['untrusted', 'unverified', 'trusted'] as const),
    tier: pick(next, ['working', 'episodic', 'semantic', 'procedural'] as const),
    flags: pick(next, [[], [], [], ['instruction-override']]),
    confidence: Math.round(next() * 100) / 100,
    createdAt: Math.floor(next() * 2e12),
    recallCount: Math.floor(next() * 5),
  }
  if (next() < 0.3) fields.happenedAt = Math.floor(next() * 2e12)
  if (next() < 0.1) fields.happenedUntil = (fields.happenedAt ?? 0) + 1000
  if (next() < 0.2) fields.lastRecalledAt = Math.floor(next() * 2e12)
  if (next() < 0.1) fields.expiresAt = -0
  if (next() < 0.1) fields.archivedAt = 1
  if (next() < 0.2) fields.needsReview = next() < 0.5
  if (next() < 0.2) fields.summary = next() < 0.5 ? '' : `summary of ${id}`
  if (next() < 0.2) fields.meta = { speaker: 'Caroline', turn: Math.floor(next() * 10) }
  if (next() < 0.3) {
    fields.pageId = pick(next, ['p1', 'p2'])
    fields.chunk = Math.floor(next() * 4)
    fields.page = {
      title: pick(next, ['Notes', 'Runbook']),
      headingPath: pick(next, [[], ['Setup'], ['Setup', 'Build']]),
      start: 0,
      end: 10,
      overlap: 2,
      hash: pick(next, ['h1', 'h2']),
    }
  }
  // Values no column takes: they come back as they were, beside the columns.
  if (next() < 0.05) fields.sealed = { iv: 'x', data: 'y' }
  if (next() < 0.05) fields.needsReview = 'yes' as never
  if (next() < 0.05) fields.tags = ['ok', 7] as never
  if (next() < 0.05) fields.page = { title: 'odd', extra: true } as never
  return row(id, `Memory ${id} says ${pick(next, ['hello', 'the ficus', 'café ☕'])}`, fields)
}

describe('Catalogue', () => {
  it('reads like a Map of the rows it was given, through sets, replacements and deletes', () => {
    const next = uniform(TEST_SEED)
    const catalogue = new Catalogue()
    const reference = new Map<string, Memory>()
    for (let step = 0; step < 3000; step++) {
      const id = `m${Math.floor(next() * 400)}`
      if (next() < 0.25) expect(catalogue.delete(id)).toBe(reference.delete(id))
      else {
        const memory = randomRow(next, id)
        catalogue.set(memory)
        reference.set(id, structuredClone(memory))
      }
    }
    expect(catalogue.size).toBe(reference.size)
    expect([...catalogue.keys()]).toEqual([...reference.keys()])
    expect([...catalogue.values()]).toStrictEqual([...reference.values()])
    expect([...catalogue]).toStrictEqual([...reference])
    for (const id of reference.keys()) expect(catalogue.get(id)).toStrictEqual(reference.get(id))
    expect(catalogue.get('absent')).toBeUndefined()
    const seen: string[] = []
    catalogue.forEach((memory, id, map) => {
      expect(map).toBe(catalogue)
      expect(memory.id).toBe(id)
      seen.push(id)
    })
    expect(seen).toEqual([...reference.keys()])
  })

  it('answers slot reads as the materialised row does', () => {
    const next = uniform(TEST_SEED + 1)
    const catalogue = new Catalogue(Array.from({ length: 200 }, (_, i) => randomRow(next, `m${i}`)))
    for (const slot of catalogue.slots()) {
      const memory = catalogue.get(catalogue.idAt(slot))!
      expect(catalogue.slotOf(memory.id)).toBe(slot)
      expect(catalogue.textAt(slot)).toBe(memory.text)
      expect(catalogue.keyAt(slot)).toBe(memory.key)
      expect(catalogue.stringAt(slot, 'namespace')).toBe(memory.namespace)
      expect(catalogue.stringAt(slot, 'pageId')).toBe(memory.pageId)
      expect(catalogue.numberAt(slot, 'happenedAt')).toBe(memory.happenedAt)
      if (Array.isArray(memory.aliases) && memory.aliases.every((a) => typeof a === 'string'))
        expect(catalogue.listAt(slot, 'aliases')).toEqual(memory.aliases)
    }
  })

  it('hands out fresh lists, so a change to one never reaches the catalogue', () => {
    const catalogue = new Catalogue([
      row('a', 'Water the ficus', { tags: ['plants'], aliases: [] }),
      row('b', 'Feed the cat', { tags: ['plants'] }),
    ])
    const a = catalogue.get('a')!
    a.tags.push('changed')
    a.aliases.push('changed')
    a.text = 'changed'
    expect(catalogue.get('a')).toStrictEqual(
      row('a', 'Water the ficus', { tags: ['plants'], aliases: [] }),
    )
    expect(catalogue.get('b')?.tags).toEqual(['plants'])
    expect(catalogue.get('a')).not.toBe(catalogue.get('a'))
  })

  it('gives back a row with an always-set field of an odd kind as it was, columns or not', () => {
    const odd: Record<string, unknown>[] = [
      { confidence: Number.NaN },
      { namespace: 7 },
      { key: undefined },
      { flags: ['ok', 3] },
      { tier: null },
      { recallCount: '2' },
      { aliases: 'Pri' },
      { createdAt: undefined, meta: { turn: 2 }, summary: 'short' },
    ]
    const rows = odd.map((fields, i) => row(`o${i}`, `Odd row ${i}`, fields as Partial<Memory>))
    const usual = row('u', 'A usual row', { meta: { turn: 1 }, summary: 's', happenedAt: 5 })
    const catalogue = new Catalogue([...rows, usual])
    for (const memory of [...rows, usual]) {
      const expected = structuredClone(memory) as unknown as Record<string, unknown>
      for (const field of Object.keys(expected))
        if (expected[field] === undefined) delete expected[field]
      expect(catalogue.get(memory.id)).toStrictEqual(expected)
    }
  })

  it('keeps a value once however many rows hold it, and drops it when none does', () => {
    const table = new Interned<string>()
    const a = table.acquire('default', () => 'default')
    expect(table.acquire('default', () => 'other')).toBe(a)
    table.release(a)
    expect(table.value(a)).toBe('default')
    table.release(a)
    expect(table.value(a)).toBeUndefined()
    expect(table.size).toBe(0)
    expect(table.acquire('work', () => 'work')).toBe(a)
  })
})

describe('DedupKeys', () => {
  it('files a catalogue adopted whole at its first use, as filing it row by row would', () => {
    const next = uniform(TEST_SEED + 3)
    const rows = new Map<string, { namespace: string; type: string; key: string }>()
    for (let i = 0; i < 80; i++) {
      // Shared identities, so which id holds one depends on the order of filing.
      rows.set(`m${i}`, { namespace: 'default', type: 'fact', key: `key ${i % 25}` })
    }
    const eager = new DedupKeys((id) => rows.get(id))
    for (const [id, m] of rows) eager.file({ id, ...m })
    let listed = 0
    const lazy = new DedupKeys((id) => rows.get(id))
    lazy.adoptLater(() => {
      listed++
      return [...rows].map(([id, m]) => ({ id, ...m }))
    })
    expect(listed).toBe(0)
    for (let step = 0; step < 300; step++) {
      const id = `m${Math.floor(next() * 100)}`
      const held = rows.get(id)
      if (held) {
        eager.drop({ id, ...held })
        lazy.drop({ id, ...held })
        rows.delete(id)
      }
      if (next() < 0.6) {
        const m = { namespace: 'default', type: 'fact', key: `key ${Math.floor(next() * 30)}` }
        rows.set(id, m)
        eager.file({ id, ...m })
        lazy.file({ id, ...m })
      }
      for (let k = 0; k < 30; k++) {
        const probe = { namespace: 'default', type: 'fact', key: `key ${k}` }
        expect(lazy.idFor(probe)).toBe(eager.idFor(probe))
      }
    }
    expect(listed).toBe(1)
  })

  it('holds each identity by the id filed last, freed only by that id, as a Map of strings did', () => {
    const next = uniform(TEST_SEED + 2)
    const rows = new Map<string, { namespace: string; type: string; key: string }>()
    const keys = new DedupKeys((id) => rows.get(id))
    const reference = new Map<string, string>()
    const identity = (m: { namespace: string; type: string; key: string }) =>
      `${m.namespace}\u0000${m.type}\u0000${m.key}`
    for (let step = 0; step < 4000; step++) {
      const id = `m${Math.floor(next() * 60)}`
      const held = rows.get(id)
      if (held) {
        keys.drop({ id, ...held })
        if (reference.get(identity(held)) === id) reference.delete(identity(held))
        rows.delete(id)
      }
      if (next() < 0.7) {
        const m = {
          namespace: pick(next, ['default', 'work']),
          type: pick(next, ['fact', 'skill']),
          key: `key ${Math.floor(next() * 20)}`,
        }
        rows.set(id, m)
        keys.file({ id, ...m })
        reference.set(identity(m), id)
      }
      if (step % 25 !== 0) continue
      for (const namespace of ['default', 'work'])
        for (let k = 0; k < 20; k++) {
          const probe = { namespace, type: 'fact', key: `key ${k}` }
          expect(keys.idFor(probe)).toBe(reference.get(identity(probe)))
        }
    }
  })
})

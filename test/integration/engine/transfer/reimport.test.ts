/**
 * Importing an export into the memory it came from (issue 27): a restore is not a
 * confirmation. Lines whose memory is stored under the same id with the same content are
 * counted as already known and leave the row alone, so re-importing your own backup twice
 * does not double every fact's confirmations; a write of the same text from anywhere else still
 * confirms.
 */
import { describe, expect, it } from 'vitest'
import type { Memory } from '../../../../src/core/types.ts'
import type { MemoryEngine } from '../../../../src/engine/memory-engine.ts'
import { closingEngines, manualClock } from '../../../helpers/engine.ts'
import { guide } from '../pages/page-fixture.ts'

const open = closingEngines()

/** Every memory's history fields by id: what a restore must leave as it was. */
async function histories(memory: MemoryEngine) {
  const { items } = await memory.list({ limit: 1000 })
  return new Map(
    items.map((m: Memory) => [
      m.id,
      { confirmations: m.confirmations, confirmedAt: m.confirmedAt, updatedAt: m.updatedAt },
    ]),
  )
}

describe('re-importing an export', () => {
  it('into the memory it came from, twice, confirms nothing and changes no row', async () => {
    const clock = manualClock()
    const memory = await open({ clock: clock.read })
    await memory.remember('The owner prefers metric units', { tags: ['prefs'] })
    await memory.remember('Standup moved to 9:30 on Tuesdays')
    await memory.remember('the owner prefers METRIC units')
    await memory.pages.remember({ title: 'Guide', text: guide(3), source: 'guide.md' })
    const before = await histories(memory)
    expect([...before.values()].map((h) => h.confirmations).sort()).toContain(2)
    const backup = await memory.transfer.export()

    for (const round of [1, 2]) {
      clock.tick(60_000)
      const report = await memory.transfer.import(backup, { defaults: { source: 'import' } })
      expect(report, `round ${round}`).toMatchObject({ created: 0, duplicates: before.size })
      expect(await histories(memory), `round ${round}`).toEqual(before)
    }
    expect(await memory.count()).toBe(before.size)
    expect((await memory.inspect.verify()).ok).toBe(true)
  })

  it('still confirms a stored memory when a line of the same text comes without its id', async () => {
    const memory = await open()
    const { id } = await memory.remember('The owner prefers metric units')
    const line = JSON.stringify({ text: 'The owner prefers metric units' })
    const report = await memory.transfer.import(line, { defaults: { source: 'import' } })
    expect(report).toMatchObject({ created: 0, duplicates: 1 })
    expect((await memory.get(id))?.confirmations).toBe(2)
  })

  it('writes a line whose id is stored with other content as any write, not as a restore', async () => {
    const memory = await open()
    const { id } = await memory.remember('The office is in Lisbon')
    const line = JSON.stringify({ id, text: 'The office is in Porto' })
    const report = await memory.transfer.import(line, { defaults: { source: 'import' } })
    expect(report).toMatchObject({ created: 1, duplicates: 0 })
    expect((await memory.get(id))?.text).toBe('The office is in Lisbon')
    expect(await memory.count()).toBe(2)
  })
})

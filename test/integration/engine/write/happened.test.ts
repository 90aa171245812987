/**
 * Issue 26 §3: a memory may say when the thing it tells of happened (`happenedAt`, and the end
 * of an interval, `happenedUntil`), apart from when it was stored. Each door of the write path
 * keeps both, and a bad value or a broken interval writes nothing.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import { closingEngines, manualClock } from '../../../helpers/engine.ts'

const engine = closingEngines()
const MAY_14 = Date.UTC(2023, 4, 14)
const MAY_20 = Date.UTC(2023, 4, 20)

describe('happenedAt and happenedUntil', () => {
  it('are stored by remember and rememberMany apart from createdAt', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const { id } = await e.remember('Met Ana in Lisbon', { happenedAt: MAY_14 })
    const [trip] = await e.rememberMany([
      { text: 'Stayed in Porto', happenedAt: MAY_14, happenedUntil: MAY_20 },
    ])
    const met = await e.get(id)
    expect(met).toMatchObject({ happenedAt: MAY_14, createdAt: clock.now })
    expect(met!.happenedUntil).toBeUndefined()
    expect(await e.get(trip!.id)).toMatchObject({ happenedAt: MAY_14, happenedUntil: MAY_20 })
    const none = await e.remember('No date at all', { happenedAt: null as unknown as number })
    expect(await e.get(none.id)).not.toHaveProperty('happenedAt')
  })

  it('are changed by update and removed by null', async () => {
    const e = await engine()
    const { id } = await e.remember('Stayed in Porto', { happenedAt: MAY_14 })
    await e.update(id, { happenedUntil: MAY_20 })
    expect(await e.get(id)).toMatchObject({ happenedAt: MAY_14, happenedUntil: MAY_20 })
    await e.update(id, { happenedUntil: null })
    expect(await e.get(id)).not.toHaveProperty('happenedUntil')
    await e.update(id, { happenedAt: null })
    expect(await e.get(id)).not.toHaveProperty('happenedAt')
  })

  it('travel through an export and an import unchanged', async () => {
    const from = await engine()
    await from.remember('Stayed in Porto', { happenedAt: MAY_14, happenedUntil: MAY_20 })
    await from.remember('Stored today, happened today')
    const jsonl = await from.transfer.export()
    const to = await engine()
    await to.transfer.import(jsonl)
    const rows = (await to.list()).items
    const porto = rows.find((m) => m.text === 'Stayed in Porto')
    expect(porto).toMatchObject({ happenedAt: MAY_14, happenedUntil: MAY_20 })
    expect(rows.find((m) => m.text !== 'Stayed in Porto')).not.toHaveProperty('happenedAt')
  })

  it('refuse what is not an instant, naming the field, and write nothing', async () => {
    const e = await engine()
    const bad: [string, Record<string, unknown>][] = [
      ['happenedAt', { happenedAt: '2023-05-14' }],
      ['happenedAt', { happenedAt: Number.NaN }],
      ['happenedUntil', { happenedAt: MAY_14, happenedUntil: Number.POSITIVE_INFINITY }],
      ['happenedUntil', { happenedUntil: MAY_20 }],
      ['happenedUntil', { happenedAt: MAY_20, happenedUntil: MAY_14 }],
    ]
    for (const [field, options] of bad) {
      const error = await e.remember('Met Ana', options).catch((x: unknown) => x)
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as InvalidInputError).field).toBe(field)
    }
    const batch = e.rememberMany([
      { text: 'fine' },
      { text: 'broken', happenedAt: MAY_20, happenedUntil: MAY_14 },
    ])
    await expect(batch).rejects.toMatchObject({ field: 'items[1].happenedUntil' })
    expect(await e.count()).toBe(0)
  })

  it('refuse a patch that would break the interval, keeping the row as it was', async () => {
    const e = await engine()
    const { id } = await e.remember('Stayed in Porto', {
      happenedAt: MAY_14,
      happenedUntil: MAY_20,
    })
    const before = await e.get(id)
    await expect(e.update(id, { happenedAt: null })).rejects.toMatchObject({
      name: 'InvalidInputError',
      field: 'patch.happenedUntil',
    })
    await expect(e.update(id, { happenedUntil: MAY_14 - 1 })).rejects.toBeInstanceOf(
      InvalidInputError,
    )
    await expect(e.update(id, { happenedAt: 'May' as unknown as number })).rejects.toMatchObject({
      field: 'patch.happenedAt',
    })
    expect(await e.get(id)).toEqual(before)
  })

  it('refuse a broken interval on an import line, naming the line', async () => {
    const e = await engine()
    const jsonl = `{"text":"ok"}\n{"text":"Stayed","happenedAt":${MAY_20},"happenedUntil":${MAY_14}}\n`
    await expect(e.transfer.import(jsonl)).rejects.toMatchObject({ name: 'ImportFormatError' })
    expect(await e.count()).toBe(0)
  })
})

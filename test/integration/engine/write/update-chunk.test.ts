/** `update()` on a chunk of a page (issue 15): refused with a typed error, nothing changed. */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import { closingEngines } from '../../../helpers/engine.ts'
import { guide } from '../pages/page-fixture.ts'

const open = closingEngines()

describe('update on a page chunk', () => {
  it('refuses with PAGE_CHUNK naming the id, and leaves the page, its rows and the change log as they were', async () => {
    const memory = await open()
    const { pageId } = await memory.pages.remember({ title: 'Agent guide', text: guide(3) })
    const before = await memory.pages.get(pageId)
    const { items } = await memory.list({ type: 'page', limit: 100 })
    const chunk = items.find((m) => m.chunk === 1)!
    const seq = (await memory.inspect.stats()).changeSeq
    for (const patch of [{ text: 'Rewritten chunk.' }, { tags: ['x'] }, { tier: 'episodic' }]) {
      const error = await memory.update(chunk.id, patch as never).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidInputError)
      expect(error).toMatchObject({ code: 'PAGE_CHUNK', field: 'id' })
      expect((error as Error).message).toContain(`rememberPage({ pageId: '${pageId}'`)
    }
    expect(await memory.pages.get(pageId)).toEqual(before)
    expect(await memory.get(chunk.id)).toEqual(chunk)
    expect((await memory.inspect.stats()).changeSeq).toBe(seq)
    const fact = await memory.remember('A plain fact stays editable')
    expect((await memory.update(fact.id, { tags: ['ok'] })).tags).toEqual(['ok'])
  })
})

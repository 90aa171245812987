import { afterEach, describe, expect, it, vi } from 'vitest'
import { createContext, EventBus, type OpenPage } from '../../../src/app/context.ts'
import type { AppSettings } from '../../../src/app/settings.ts'
import type { MemoryClient } from '../../../src/index.ts'

function setUp() {
  const bus = new EventBus()
  const memory = {} as MemoryClient
  const settings = { memory: 'default' } as AppSettings
  const ctx = createContext(memory, settings, bus, async () => memory)
  return { bus, ctx }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the cross-card channel', () => {
  it('hands each signal its detail, to every listener of that signal only', () => {
    const { ctx } = setUp()
    const opened: OpenPage[] = []
    const recalled: string[] = []
    ctx.on('open-page', (target) => opened.push(target))
    ctx.on('open-page', (target) => opened.push(target))
    ctx.on('recalled', (query) => recalled.push(query))
    ctx.emit('open-page', { pageId: 'p1', start: 0, end: 4 })
    expect(opened).toEqual([
      { pageId: 'p1', start: 0, end: 4 },
      { pageId: 'p1', start: 0, end: 4 },
    ])
    expect(recalled).toEqual([])
    ctx.emit('recalled', 'who is Priya?')
    expect(recalled).toEqual(['who is Priya?'])
  })

  it('folds a burst of "changed" into one signal', () => {
    vi.useFakeTimers()
    const { bus, ctx } = setUp()
    let changes = 0
    ctx.on('changed', () => changes++)
    ctx.emit('changed')
    ctx.emit('changed')
    bus.emit({ type: 'change', ids: ['a'] } as never)
    expect(changes).toBe(0)
    vi.advanceTimersByTime(100)
    expect(changes).toBe(1)
  })
})

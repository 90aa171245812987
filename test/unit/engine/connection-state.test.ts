import { describe, expect, it } from 'vitest'
import { MemoryClosedError } from '../../../src/core/errors.ts'
import { ConnectionState } from '../../../src/engine/connection-state.ts'

describe('ConnectionState', () => {
  it('winds down on close and then refuses every call', () => {
    const state = new ConnectionState()
    expect(() => state.assertOpen()).not.toThrow()
    expect(state.beginClose()).toBe(true)
    expect(state.beginClose()).toBe(false)
    expect(state.isWindingDown).toBe(true)
    expect(state.isClosed).toBe(false)
    state.finishClose()
    expect(state.isClosed).toBe(true)
    expect(() => state.assertOpen()).toThrow(MemoryClosedError)
  })

  it('keeps the first reason it was closed for good', () => {
    const state = new ConnectionState()
    expect(state.closeForGood('another tab deleted this memory')).toBe(true)
    expect(state.closeForGood('something else')).toBe(false)
    state.finishClose()
    expect(state.closedError?.message).toContain('another tab deleted this memory')
    expect(state.closedError?.message).not.toContain('something else')
  })

  it('shares one reopen among the calls that find the connection lost', async () => {
    const state = new ConnectionState()
    let runs = 0
    let finish!: () => void
    const reopen = () => {
      runs++
      return new Promise<void>((resolve) => {
        finish = resolve
      })
    }
    const first = state.reopen(reopen)
    const second = state.reopen(reopen)
    finish()
    await Promise.all([first, second])
    expect(runs).toBe(1)
    await state.reopen(async () => {
      runs++
    })
    expect(runs).toBe(2)
  })
})

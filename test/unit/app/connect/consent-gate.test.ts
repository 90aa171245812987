import { describe, expect, it } from 'vitest'
import { ARM_AFTER_MS, ConsentGate } from '../../../../src/app/connect/consent-gate.ts'

/** A gate on a clock the test moves. */
function gate() {
  let t = 1000
  const g = new ConsentGate({ now: () => t })
  return { g, wait: (ms: number) => (t += ms) }
}

/** A pointer click on `choice`: press, the focus it moves, the click. */
function click(g: ConsentGate, choice: 'allow' | 'deny'): boolean {
  g.pointerDown(choice)
  g.focus(choice)
  return g.activate(choice)
}

describe('ConsentGate', () => {
  it('ignores a click before the prompt has been seen for the delay, and takes one after', () => {
    const { g, wait } = gate()
    expect(click(g, 'allow')).toBe(false)
    g.seen(true)
    wait(ARM_AFTER_MS - 1)
    expect(g.armsIn()).toBe(1)
    expect(click(g, 'allow')).toBe(false)
    wait(1)
    expect(g.armed).toBe(true)
    expect(click(g, 'allow')).toBe(true)
  })

  it('starts the delay again each time the prompt is seen anew', () => {
    const { g, wait } = gate()
    g.seen(true)
    wait(ARM_AFTER_MS)
    g.seen(false)
    g.seen(true)
    wait(ARM_AFTER_MS / 2)
    expect(click(g, 'allow')).toBe(false)
    wait(ARM_AFTER_MS / 2)
    expect(click(g, 'allow')).toBe(true)
  })

  it('ignores Tab Tab Enter and Tab Tab Space on a prompt long seen, the frame focused by the embedder', () => {
    const { g, wait } = gate()
    g.seen(true)
    wait(10 * ARM_AFTER_MS)
    g.focus(undefined) // the embedding page focused the frame
    wait(20)
    g.focus('deny')
    wait(20)
    g.focus('allow')
    wait(20)
    g.keyDown('allow', 'Enter', false)
    expect(g.activate('allow')).toBe(false)
    g.keyDown('allow', ' ', false)
    wait(20)
    expect(g.activate('allow')).toBe(false)
  })

  it('takes Enter or Space on a button that has held the focus for the delay', () => {
    const { g, wait } = gate()
    g.seen(true)
    g.focus('allow')
    wait(ARM_AFTER_MS)
    g.keyDown('allow', 'Enter', false)
    expect(g.activate('allow')).toBe(true)
    g.keyDown('allow', ' ', false)
    wait(30)
    expect(g.activate('allow')).toBe(true)
  })

  it('drops a key press when the focus moves before its click', () => {
    const { g, wait } = gate()
    g.seen(true)
    g.focus('deny')
    wait(ARM_AFTER_MS)
    g.keyDown('deny', ' ', false)
    g.focus('allow')
    expect(g.activate('allow')).toBe(false)
    expect(g.activate('deny')).toBe(false)
  })

  it('ignores a held key, another key, and a click no press led to', () => {
    const { g, wait } = gate()
    g.seen(true)
    g.focus('allow')
    wait(ARM_AFTER_MS)
    g.keyDown('allow', ' ', true)
    expect(g.activate('allow')).toBe(false)
    g.keyDown('allow', 'a', false)
    expect(g.activate('allow')).toBe(false)
    expect(g.activate('allow')).toBe(false)
  })

  it('takes a press only on the button it went down on, and not once the prompt is hidden', () => {
    const { g, wait } = gate()
    g.seen(true)
    wait(ARM_AFTER_MS)
    g.pointerDown('deny')
    expect(g.activate('allow')).toBe(false)
    g.pointerDown('allow')
    g.seen(false)
    g.seen(true)
    expect(g.activate('allow')).toBe(false)
  })

  it('refuses a delay outside 0..60000', () => {
    expect(() => new ConsentGate({ armAfterMs: -1 })).toThrow(RangeError)
    expect(() => new ConsentGate({ armAfterMs: Number.NaN })).toThrow(/got NaN/)
  })
})

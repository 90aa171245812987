import { describe, expect, it } from 'vitest'
import { view } from '../../../src/app/view.ts'
import { asElement, FakeElement } from './fake-dom.ts'

/** A promise and the hand that settles it, so a test decides when a load finishes. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

function setUp() {
  const error = new FakeElement('p')
  error.hidden = true
  const root = new FakeElement('section')
  return { error, root, options: { error: asElement(error), root: asElement(root) } }
}

describe('view', () => {
  it('draws what it loaded and marks the card ready', async () => {
    const { root, options } = setUp()
    const drawn: number[] = []
    const shown = view(
      async () => 7,
      (n) => drawn.push(n),
      options,
    )
    await shown.refresh()
    expect(drawn).toEqual([7])
    expect(root.dataset.state).toBe('ready')
    expect(root.hasAttribute('aria-busy')).toBe(false)
  })

  it('marks the card loading while the load runs', async () => {
    const { root, options } = setUp()
    const load = deferred<number>()
    const shown = view(
      () => load.promise,
      () => {},
      options,
    )
    const done = shown.refresh()
    expect(root.dataset.state).toBe('loading')
    expect(root.getAttribute('aria-busy')).toBe('true')
    load.resolve(1)
    await done
    expect(root.dataset.state).toBe('ready')
  })

  it('shows a failed load in the message line, then hides it when a load works again', async () => {
    const { error, root, options } = setUp()
    let fail = true
    const failures: unknown[] = []
    const shown = view(
      async () => {
        if (fail) throw new Error('the memory is closed')
        return 1
      },
      () => {},
      { ...options, failed: (failure) => failures.push(failure) },
    )
    await shown.refresh()
    expect(error.hidden).toBe(false)
    expect(error.textContent).toBe('the memory is closed')
    expect(root.dataset.state).toBe('failed')
    expect(failures).toHaveLength(1)
    fail = false
    await shown.refresh()
    expect(error.hidden).toBe(true)
    expect(root.dataset.state).toBe('ready')
  })

  it('shows a failure to draw like a failure to load', async () => {
    const { error, options } = setUp()
    const shown = view(
      async () => 1,
      () => {
        throw new Error('cannot draw')
      },
      options,
    )
    await shown.refresh()
    expect(error.textContent).toBe('cannot draw')
  })

  it('draws only the latest load, even when an older one finishes after it', async () => {
    const { options } = setUp()
    const loads: ReturnType<typeof deferred<number>>[] = []
    const drawn: number[] = []
    const shown = view(
      () => {
        const load = deferred<number>()
        loads.push(load)
        return load.promise
      },
      (n) => drawn.push(n),
      options,
    )
    const older = shown.refresh()
    const newer = shown.refresh()
    loads[1]!.resolve(2)
    await newer
    loads[0]!.resolve(1)
    await older
    expect(drawn).toEqual([2])
  })

  it('is not held back by a load that never settles', async () => {
    const { root, options } = setUp()
    let first = true
    const drawn: number[] = []
    const shown = view(
      () => {
        if (first) {
          first = false
          return new Promise<number>(() => {})
        }
        return Promise.resolve(2)
      },
      (n) => drawn.push(n),
      options,
    )
    void shown.refresh()
    await shown.refresh()
    expect(drawn).toEqual([2])
    expect(root.dataset.state).toBe('ready')
  })

  it('drops the failure of a load a newer one replaced', async () => {
    const { error, options } = setUp()
    const loads: ReturnType<typeof deferred<number>>[] = []
    const shown = view(
      () => {
        const load = deferred<number>()
        loads.push(load)
        return load.promise
      },
      () => {},
      options,
    )
    const older = shown.refresh()
    const newer = shown.refresh()
    loads[1]!.resolve(2)
    await newer
    loads[0]!.reject(new Error('the memory is closed'))
    await older
    expect(error.hidden).toBe(true)
  })
})

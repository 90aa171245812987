import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { type Acknowledged, fact } from './harness.ts'

/**
 * Runs one call of a workload: its value, or `undefined` when it failed (a test checks the error
 * is typed) or will never answer (the connection is dead). `stopped` tells the workload to stop.
 */
export interface Stepper {
  step<T>(call: () => Promise<T>): Promise<T | undefined>
  readonly stopped: boolean
}

/**
 * A mixed write workload: coalesced remembers with duplicates, rememberMany, updates of text and
 * tags, forgets, an import and a recall. Every call that resolves is recorded in `ack`; a call
 * that fails is not, and the workload goes on with what it has.
 */
export async function mixedWorkload(
  e: MemoryEngine,
  ack: Acknowledged,
  run: Stepper,
  salt = 0,
): Promise<void> {
  const f = (i: number) => fact(i, salt)
  const idOf = new Map<string, string>()
  const remember = async (text: string) => {
    const r = await e.remember(text)
    ack.wrote(r.id, text)
    idOf.set(f(Number(/Fact (\d+)-/i.exec(text)![1])), r.id)
    return r.id
  }
  const update = async (i: number, text: string | undefined, tags: string[]) => {
    const id = idOf.get(f(i))
    if (!id || run.stopped) return
    const done = await run.step(() => e.update(id, text ? { text, tags } : { tags }))
    if (done && text) {
      ack.wrote(id, text)
      idOf.delete(f(i))
    }
  }
  const forget = async (i: number) => {
    const id = idOf.get(f(i))
    if (!id || run.stopped) return
    const done = await run.step(() => e.forget(id).then(() => true))
    if (done) {
      ack.forgot(id)
      idOf.delete(f(i))
    }
  }
  const all = (texts: string[]) =>
    run.step(() => Promise.allSettled(texts.map(remember)).then(() => true))

  await all([f(0), f(1), f(2), f(0).toUpperCase(), f(3), f(1)])
  if (run.stopped) return
  const many = [f(4), f(5), f(2), f(6)]
  const batch = await run.step(() => e.rememberMany(many.map((text) => ({ text, tags: ['many'] }))))
  batch?.forEach((r, i) => {
    ack.wrote(r.id, many[i]!)
    idOf.set(many[i]!, r.id)
  })
  await update(0, f(10), ['edited'])
  await update(1, undefined, ['retagged'])
  await forget(2)
  if (run.stopped) return
  const lines = [f(20), f(21), f(4)]
  const report = await run.step(() =>
    e.transfer.import(lines.map((text) => JSON.stringify({ text })).join('\n')),
  )
  if (run.stopped) return
  await run.step(() => e.recall(f(20)))
  if (report) {
    const page = await run.step(() => e.list({ limit: 100 }))
    for (const text of lines) {
      const row = page?.items.find((m) => m.text === text)
      if (row) {
        ack.wrote(row.id, text)
        idOf.set(text, row.id)
      }
    }
  }
  if (run.stopped) return
  await all([f(30), f(31), f(30), f(32)])
  await update(3, f(11), ['late'])
  await forget(21)
  await update(5, f(12), [])
}

import { onTestFinished } from 'vitest'

/**
 * Waits until `check` holds, asking again every `everyMs` (background work such as a backfill or
 * a model load announces itself only through state that `stats()` reads). It has no deadline of
 * its own: the test's timeout bounds it, so a loaded machine makes a test slower, never fails it
 * early. Once the test has ended (its timeout struck), it stops asking and throws.
 *
 * @example
 * await eventually(async () => (await memory.inspect.stats()).pendingVectors === 0, 'the backfill ended')
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what = 'the condition held',
  everyMs = 10,
): Promise<void> {
  let ended = false
  try {
    onTestFinished(() => {
      ended = true
    })
  } catch {
    // Called from a hook, not a test: the hook's own timeout bounds the wait.
  }
  while (!(await check())) {
    if (ended) throw new Error(`the test ended before ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

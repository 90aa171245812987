import { errorToData } from '../core/errors.ts'

/**
 * Runs `task`; an `Error` it throws is rethrown as `ErrorData`, which a structured clone keeps
 * whole (a thrown `Error` would arrive with only `name`, `message` and `stack`). The page side
 * rebuilds the class with `reviveError`.
 */
export async function sendingErrorsAsData<T>(task: () => T | Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    throw error instanceof Error ? errorToData(error) : error
  }
}

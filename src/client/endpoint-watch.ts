import type * as Comlink from 'comlink'
import { WorkerTerminatedError } from '../core/errors.ts'
import { sendErrorsAsData } from '../host/errors-as-data.ts'

/** The endpoint's life: `guard` settles a call or rejects it when the endpoint dies first. */
export interface EndpointWatch {
  readonly death: string | undefined
  die(reason: string): void
  guard<T>(promise: Promise<T>): Promise<T>
}

/**
 * Watches `endpoint` for an `error` or `close` event and rejects every guarded call in flight
 * with `WorkerTerminatedError` when it dies; `onDeath` hears the reason once, and whether the
 * endpoint failed (an `error` event) rather than closed. Registers the page's end of the errors
 * as data ({@link sendErrorsAsData}), so a guarded call that fails rejects with the error the
 * host threw, rebuilt as its class.
 */
export function watchEndpoint(
  endpoint: Comlink.Endpoint,
  onDeath: (reason: string, failed: boolean) => void,
): EndpointWatch {
  sendErrorsAsData()
  const waiting = new Set<(error: Error) => void>()
  let death: string | undefined
  const die = (reason: string, failed = false): void => {
    if (death !== undefined) return
    death = reason
    for (const reject of waiting) reject(new WorkerTerminatedError(reason))
    waiting.clear()
    endpoint.removeEventListener('error', onError)
    endpoint.removeEventListener('close', onClose)
    onDeath(reason, failed)
  }
  const onError = (event: unknown): void => {
    const message = (event as { message?: unknown }).message
    die(
      `the memory worker failed${typeof message === 'string' && message ? `: ${message}` : ''}`,
      true,
    )
  }
  const onClose = (): void => die('the memory worker closed its channel')
  endpoint.addEventListener('error', onError)
  endpoint.addEventListener('close', onClose)

  return {
    get death() {
      return death
    },
    die,
    guard: <T>(promise: Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        if (death !== undefined) {
          reject(new WorkerTerminatedError(death))
          return
        }
        waiting.add(reject)
        promise.then(
          (value) => {
            waiting.delete(reject)
            resolve(value)
          },
          (error: unknown) => {
            waiting.delete(reject)
            reject(error)
          },
        )
      }),
  }
}

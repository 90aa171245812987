import * as Comlink from 'comlink'
import { errorToData, reviveError } from '../core/errors.ts'

/** Comlink's own handler, whose test for "a thrown value" (a private marker) this one reuses. */
const comlinkThrow = Comlink.transferHandlers.get('throw')!

/** A thrown value as Comlink's `'throw'` handler sees it: `value` is what was thrown. */
interface Thrown {
  value: unknown
}

/** On the wire: the same shape as Comlink's own, so an end that did not register still reads it. */
interface ThrownWire {
  isError: boolean
  value: unknown
}

/**
 * Comlink's `'throw'` transfer handler, sending errors as data: an `Error` thrown behind
 * `Comlink.expose` crosses as `ErrorData`, which a structured clone keeps whole (a thrown
 * `Error` would arrive with only `name`, `message` and `stack`), and the receiving end throws
 * it rebuilt by `reviveError`: a catalogue error as its own class with its `code`, `field` and
 * other data fields, any other error as an `Error` with its name and message. Anything else
 * thrown (a string) arrives as it was.
 */
export const errorsAsData: Comlink.TransferHandler<Thrown, ThrownWire> = {
  canHandle: (value: unknown): value is Thrown => comlinkThrow.canHandle(value),
  serialize({ value }) {
    const isError = value instanceof Error
    return [{ isError, value: isError ? errorToData(value) : value }, []]
  },
  deserialize(wire) {
    throw reviveError(wire.value)
  },
}

/**
 * Registers {@link errorsAsData} as Comlink's `'throw'` handler. Each end calls it once, before
 * its first call crosses: the host when it is created, the page when it watches its endpoint.
 * Comlink's handlers are one table per JavaScript realm, so a second call changes nothing.
 */
export function sendErrorsAsData(): void {
  if (Comlink.transferHandlers.get('throw') !== errorsAsData) {
    Comlink.transferHandlers.set('throw', errorsAsData as Comlink.TransferHandler<unknown, unknown>)
  }
}

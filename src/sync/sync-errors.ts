import { EngramError } from '../core/errors.ts'

/**
 * The passphrase or key does not open this server's memory: the `engram-keycheck` document
 * there was sealed with another one. Nothing was replicated or changed, locally or remotely.
 */
export class SyncKeyError extends EngramError {
  override readonly name = 'SyncKeyError'
  readonly code = 'WRONG_KEY'
  constructor(
    message = 'the passphrase or key does not match the one this server was set up with',
  ) {
    super(message)
  }
}

/** The server cannot be used for sync: unreachable on first use, or it answered with an error. */
export class SyncServerError extends EngramError {
  override readonly name = 'SyncServerError'
  readonly code = 'SYNC_SERVER'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

import { badOption, booleanOr, expectOptions, integerIn, numberIn } from '../core/check-options.ts'
import type { SyncOptions } from '../core/types.ts'
import { DEFAULT_KDF_ITERATIONS } from './sync-keys.ts'

/** Milliseconds between looks at the local change log for writes to push. */
export const DEFAULT_SYNC_POLL_MS = 250
/** Longest wait between retries while the server is unreachable. */
export const DEFAULT_SYNC_MAX_RETRY_MS = 5_000
/** Largest sealed document accepted from the server, in bytes of ciphertext. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 1_048_576
/** Documents read or written per step of a pass. */
export const SYNC_BATCH = 250

/**
 * Options for {@link startSync}: the contract's {@link SyncOptions} (plain data, what
 * `memory.sync.start()` takes), plus the mirror, which only an in-process caller can hand over.
 */
export interface StartSyncOptions extends SyncOptions {
  /**
   * The local PouchDB database of sealed documents (`new PouchDB(name, { adapter: 'memory' })`
   * in Node). Typed loosely so the package's types need no PouchDB typings.
   * @default an IndexedDB one named `engram-sync:<memory>`
   */
  mirror?: object
}

export interface ResolvedSyncOptions {
  url: string
  auth?: { username: string; password: string }
  secret: { passphrase: string } | { key: CryptoKey }
  live: boolean
  vectors: boolean
  kdfIterations: number
  nearDuplicate: number | undefined
  mirror: object | undefined
  pollMs: number
  maxRetryMs: number
  maxDocumentBytes: number
}

const NAMES = [
  'url',
  'auth',
  'passphrase',
  'key',
  'live',
  'vectors',
  'kdfIterations',
  'nearDuplicate',
  'mirror',
  'pollMs',
  'maxRetryMs',
  'maxDocumentBytes',
] as const satisfies readonly (keyof StartSyncOptions)[]

/** Checks {@link SyncOptions}; throws InvalidInputError `BAD_OPTION` naming the field. */
export function checkSyncOptions(options: StartSyncOptions): ResolvedSyncOptions {
  expectOptions(options, 'options', NAMES, '', true)
  const { url, auth, passphrase, key } = options
  if (typeof url !== 'string' || !/^https?:\/\/./.test(url))
    throw badOption('url', 'an http(s) URL', url)
  if (
    auth !== undefined &&
    (typeof auth?.username !== 'string' || typeof auth?.password !== 'string')
  )
    throw badOption('auth', '{ username, password } strings', auth)
  if ((passphrase === undefined) === (key === undefined))
    throw badOption('passphrase', 'exactly one of passphrase and key', 'both or neither')
  if (passphrase !== undefined && (typeof passphrase !== 'string' || passphrase.length === 0))
    throw badOption('passphrase', 'a non-empty string', passphrase)
  if (key !== undefined && (typeof key !== 'object' || key === null || !('algorithm' in key)))
    throw badOption('key', 'a CryptoKey', key)
  const flag = (name: 'live' | 'vectors', fallback: boolean) =>
    booleanOr(options[name], fallback, name)
  const number = (
    name: 'kdfIterations' | 'pollMs' | 'maxRetryMs' | 'maxDocumentBytes',
    fallback: number,
    min: number,
  ) => integerIn(options[name] ?? fallback, name, min, Number.MAX_SAFE_INTEGER)
  const near = options.nearDuplicate
  if (near !== undefined) numberIn(near, 'nearDuplicate', 0, 1)
  const resolved: ResolvedSyncOptions = {
    url: url.replace(/\/+$/, ''),
    secret: passphrase !== undefined ? { passphrase } : { key: key! },
    live: flag('live', true),
    vectors: flag('vectors', false),
    kdfIterations: number('kdfIterations', DEFAULT_KDF_ITERATIONS, DEFAULT_KDF_ITERATIONS),
    nearDuplicate: near,
    mirror: options.mirror,
    pollMs: number('pollMs', DEFAULT_SYNC_POLL_MS, 10),
    maxRetryMs: number('maxRetryMs', DEFAULT_SYNC_MAX_RETRY_MS, 10),
    maxDocumentBytes: number('maxDocumentBytes', DEFAULT_MAX_DOCUMENT_BYTES, 1024),
  }
  if (auth) resolved.auth = auth
  return resolved
}

import { InvalidInputError } from '../core/errors.ts'
import type { PouchDatabase } from './pouch.ts'
import { DEFAULT_KDF_ITERATIONS } from './sync-keys.ts'

/** Milliseconds between looks at the local change log for writes to push. */
export const DEFAULT_SYNC_POLL_MS = 250
/** Longest wait between retries while the server is unreachable. */
export const DEFAULT_SYNC_MAX_RETRY_MS = 5_000
/** Documents read or written per step of a pass. */
export const SYNC_BATCH = 250

/**
 * Options for {@link startSync}. Give exactly one of `passphrase` and `key`.
 *
 * @example
 * const sync = startSync(engine, { url: 'https://couch.example/alice-memory', passphrase })
 * sync.on((s) => console.log(s.state, s.pushed, s.pulled))
 * // => 'active' 12 0, then 'paused' 12 0 once caught up
 */
export interface SyncOptions {
  /** The CouchDB-protocol database to sync with (CouchDB, PouchDB Server…); created if missing. */
  url: string
  /** Basic-auth credentials for the server. */
  auth?: { username: string; password: string }
  /**
   * The secret documents are sealed with, stretched by PBKDF2-SHA-256 (`kdfIterations` rounds)
   * with the salt from the server's `engram-keycheck` document. Never sent anywhere.
   */
  passphrase?: string
  /** Instead of a passphrase: an HKDF key the app manages (`importKey('raw', …, 'HKDF', …)`). */
  key?: CryptoKey
  /** Keep replicating as changes happen; false syncs once and stops (see `SyncHandle.done`). @default true */
  live?: boolean
  /**
   * Replicate vectors too. Off by default: each device embeds with its own model, and a vector
   * is only used where the model id matches. @default false
   */
  vectors?: boolean
  /**
   * PBKDF2 rounds for the first device to set up the server (later ones read them from the
   * keycheck). At least 600 000. @default 600000
   */
  kdfIterations?: number
  /**
   * Cosine at or above which two memories that devices wrote independently are one, the
   * smaller document id winning on every device. 0..1. @default the engine's `nearDuplicate` (0.97)
   */
  nearDuplicate?: number
  /** The local PouchDB of sealed documents. @default an IndexedDB one named after the memory */
  mirror?: PouchDatabase
  /** @default 250 */
  pollMs?: number
  /** @default 5000 */
  maxRetryMs?: number
}

/** Where a sync stands, as the handle's listeners see it. */
export interface SyncStatus {
  /**
   * `starting` (keys, first pass), `active` (replicating), `paused` (caught up, or offline when
   * `error` is set), `complete` (a one-shot sync finished), `stopped`, `error` (gave up).
   */
  state: 'starting' | 'active' | 'paused' | 'complete' | 'stopped' | 'error'
  /** Documents written to the server / read from it, since start. */
  pushed: number
  pulled: number
  /** Local memories written or forgotten because of remote changes. */
  applied: number
  /** Documents whose concurrent versions were merged. */
  conflicts: number
  /** Near duplicates written independently on two devices and folded into one. */
  nearDuplicates: number
  /** The last error, as data (it may have crossed a worker boundary). */
  error?: { name: string; message: string; code?: string }
}

export interface ResolvedSyncOptions {
  url: string
  auth?: { username: string; password: string }
  secret: { passphrase: string } | { key: CryptoKey }
  live: boolean
  vectors: boolean
  kdfIterations: number
  nearDuplicate: number | undefined
  mirror: PouchDatabase | undefined
  pollMs: number
  maxRetryMs: number
}

const NAMES = new Set([
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
])

/** Checks {@link SyncOptions}; throws InvalidInputError `BAD_OPTION` naming the field. */
export function checkSyncOptions(options: SyncOptions): ResolvedSyncOptions {
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new InvalidInputError('BAD_OPTION', field, `expected ${expected}, got ${describe(got)}`)
  }
  if (!options || typeof options !== 'object') bad('options', 'an object', options)
  for (const name of Object.keys(options)) if (!NAMES.has(name)) bad(name, 'a sync option', name)
  const { url, auth, passphrase, key } = options
  if (typeof url !== 'string' || !/^https?:\/\/./.test(url)) bad('url', 'an http(s) URL', url)
  if (
    auth !== undefined &&
    (typeof auth?.username !== 'string' || typeof auth?.password !== 'string')
  )
    bad('auth', '{ username, password } strings', auth)
  if ((passphrase === undefined) === (key === undefined))
    bad('passphrase', 'exactly one of passphrase and key', 'both or neither')
  if (passphrase !== undefined && (typeof passphrase !== 'string' || passphrase.length === 0))
    bad('passphrase', 'a non-empty string', passphrase)
  if (key !== undefined && (typeof key !== 'object' || key === null || !('algorithm' in key)))
    bad('key', 'a CryptoKey', key)
  const flag = (name: 'live' | 'vectors', fallback: boolean) => {
    const v = options[name]
    if (v !== undefined && typeof v !== 'boolean') bad(name, 'a boolean', v)
    return v ?? fallback
  }
  const number = (
    name: 'kdfIterations' | 'pollMs' | 'maxRetryMs',
    fallback: number,
    min: number,
  ) => {
    const v = options[name]
    if (v !== undefined && (!Number.isInteger(v) || v < min)) bad(name, `an integer >= ${min}`, v)
    return v ?? fallback
  }
  const near = options.nearDuplicate
  if (near !== undefined && (typeof near !== 'number' || !(near >= 0 && near <= 1)))
    bad('nearDuplicate', 'a number 0..1', near)
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
  }
  if (auth) resolved.auth = auth
  return resolved
}

function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}

import { SyncKeyError, SyncServerError } from '../core/errors.ts'
import { fromBase64Url, toBase64Url } from './bytes.ts'
import type { SealedFields } from './sealed.ts'
import { seal, unseal } from './sealed.ts'
import {
  DEFAULT_KDF_ITERATIONS,
  deriveSyncKeys,
  passphraseKey,
  randomSalt,
  type SyncKeys,
} from './sync-keys.ts'

/** The well-known plain document holding the salt and a sealed check value. */
export const KEYCHECK_ID = 'engram-keycheck'

const CHECK = 'engram-sync keycheck'

/** The keycheck document. A plain document, so it replicates (a `_local` one would not). */
export interface KeycheckDoc extends SealedFields {
  _id: typeof KEYCHECK_ID
  _rev?: string
  kdf: 'PBKDF2-SHA-256'
  iterations: number
  salt: string
}

/** The secret a device brings: a passphrase, or an HKDF `CryptoKey` the app manages. */
export type SyncSecret = { passphrase: string } | { key: CryptoKey }

/** Where the keycheck document can be read and written: the server, and the local mirror. */
export interface KeycheckStore {
  get(id: string): Promise<unknown>
  put(doc: KeycheckDoc): Promise<unknown>
}

/**
 * The session keys for this server. The first device to sync writes the keycheck (a new salt,
 * the KDF rounds, a sealed check value); later devices read it from the mirror, else from the
 * server, and must open the check value. Two first devices racing both write: the loser's put
 * conflicts and it adopts the winner's salt.
 *
 * @throws SyncKeyError when the check value does not open: nothing else has been touched.
 */
export async function openKeys(
  secret: SyncSecret,
  stores: {
    mirror: KeycheckStore
    remote: KeycheckStore
    /** Copies the server's keycheck into the mirror, revision and all (a put would fork it). */
    cache: () => Promise<unknown>
  },
  iterations = DEFAULT_KDF_ITERATIONS,
): Promise<SyncKeys> {
  const cached = await read(stores.mirror)
  if (cached) return verified(secret, cached)
  const held = await readRemote(stores.remote)
  if (held) {
    const keys = await verified(secret, held)
    // Cached so a later start works offline; only once the key is known to be right.
    await stores.cache().catch(() => {})
    return keys
  }
  const salt = randomSalt()
  const keys = await keysFor(secret, salt, iterations)
  const doc: KeycheckDoc = {
    _id: KEYCHECK_ID,
    kdf: 'PBKDF2-SHA-256',
    iterations,
    salt: toBase64Url(salt),
    ...(await seal(keys, KEYCHECK_ID, CHECK)),
  }
  try {
    await stores.remote.put(doc)
  } catch (error) {
    if ((error as { status?: number }).status !== 409) {
      throw new SyncServerError('could not write the keycheck document', { cause: error })
    }
    const winner = await readRemote(stores.remote)
    if (!winner) throw new SyncServerError('the keycheck document vanished', { cause: error })
    return verified(secret, winner)
  }
  return keys
}

async function verified(secret: SyncSecret, doc: KeycheckDoc): Promise<SyncKeys> {
  const keys = await keysFor(secret, fromBase64Url(doc.salt), doc.iterations)
  let check: unknown
  try {
    check = await unseal(keys, KEYCHECK_ID, doc)
  } catch {
    throw new SyncKeyError()
  }
  if (check !== CHECK) throw new SyncKeyError()
  return keys
}

async function keysFor(
  secret: SyncSecret,
  salt: Uint8Array,
  iterations: number,
): Promise<SyncKeys> {
  const base =
    'key' in secret ? secret.key : await passphraseKey(secret.passphrase, salt, iterations)
  return deriveSyncKeys(base, salt)
}

async function read(store: KeycheckStore): Promise<KeycheckDoc | undefined> {
  try {
    return (await store.get(KEYCHECK_ID)) as KeycheckDoc
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined
    throw error
  }
}

async function readRemote(store: KeycheckStore): Promise<KeycheckDoc | undefined> {
  try {
    return await read(store)
  } catch (error) {
    throw new SyncServerError('could not read the keycheck document from the server', {
      cause: error,
    })
  }
}

import { SyncKeycheckError, SyncKeyError, SyncServerError } from '../core/errors.ts'
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
  put(doc: KeycheckDoc | Record<string, unknown>): Promise<unknown>
}

/** The server as the keycheck step needs it: the document, and whether sealed ones exist. */
export interface KeycheckRemote extends KeycheckStore {
  changes(options: { limit: number }): Promise<{ results: { id: string }[] }>
}

/**
 * The key check this device verified, pinned in the mirror (a `_local` document never
 * replicates, so the server cannot touch it).
 */
const PIN_ID = '_local/engram-sync-keycheck-pin'

/** The fields a key check is compared by. */
const PINNED = ['kdf', 'iterations', 'salt', 'v', 'iv', 'ct'] as const

/**
 * The session keys for this server. The first device to sync writes the keycheck (a new salt,
 * the KDF rounds, a sealed check value); later devices read it from the server and must open
 * the check value. A device pins the check it verified: a replaced one is refused
 * (`KEYCHECK_REPLACED`), a deleted one put back. No device writes a keycheck where sealed
 * documents exist (`KEYCHECK_MISSING`): a new salt could never open them. Two first devices
 * racing both write: the loser's put conflicts and it adopts the winner's salt.
 *
 * @throws SyncKeyError when the check value does not open; SyncKeycheckError as above: nothing
 *   else has been touched.
 */
export async function openKeys(
  secret: SyncSecret,
  stores: {
    mirror: KeycheckStore
    remote: KeycheckRemote
    /** Copies the server's keycheck into the mirror, revision and all (a put would fork it). */
    cache: () => Promise<unknown>
  },
  iterations = DEFAULT_KDF_ITERATIONS,
): Promise<SyncKeys> {
  const pinned = (await readPin(stores.mirror)) ?? (await read(stores.mirror))
  const held = await readRemote(stores.remote)
  if (pinned) {
    const keys = await verified(secret, pinned)
    if (!held) {
      await putBack(stores.remote, pinned)
    } else if (!samePin(held, pinned)) {
      throw new SyncKeycheckError(
        'KEYCHECK_REPLACED',
        'the server holds another key check than the one this device verified: it was replaced',
      )
    }
    await pin(stores.mirror, pinned)
    return keys
  }
  if (held) {
    const keys = await verified(secret, held)
    await pin(stores.mirror, held)
    // Cached so a later start works offline; only once the key is known to be right.
    await stores.cache().catch(() => {})
    return keys
  }
  await assertNoSealedDocuments(stores.remote)
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
    const won = await verified(secret, winner)
    await pin(stores.mirror, winner)
    return won
  }
  await pin(stores.mirror, doc)
  return keys
}

/** Refuses to set up a key check on a server that already holds sealed documents. */
async function assertNoSealedDocuments(remote: KeycheckRemote): Promise<void> {
  let feed: { results: { id: string }[] }
  try {
    feed = await remote.changes({ limit: 8 })
  } catch (error) {
    throw new SyncServerError('could not read the server database', { cause: error })
  }
  if (feed.results.some((r) => r.id.startsWith('m:') || r.id.startsWith('r:'))) {
    throw new SyncKeycheckError(
      'KEYCHECK_MISSING',
      'the server holds sealed documents but no key check: a device that synced before puts it back',
    )
  }
}

function samePin(a: KeycheckDoc, b: KeycheckDoc): boolean {
  return PINNED.every((f) => a[f] === b[f])
}

async function readPin(mirror: KeycheckStore): Promise<KeycheckDoc | undefined> {
  const doc = (await read(mirror, PIN_ID)) as (KeycheckDoc & { check?: KeycheckDoc }) | undefined
  return doc?.check
}

async function pin(mirror: KeycheckStore, doc: KeycheckDoc): Promise<void> {
  const held = (await read(mirror, PIN_ID)) as { _rev?: string; check?: KeycheckDoc } | undefined
  if (held?.check && samePin(held.check, doc)) return
  const check = Object.fromEntries(PINNED.map((f) => [f, doc[f]])) as unknown as KeycheckDoc
  const next: Record<string, unknown> = { _id: PIN_ID, check: { ...check, _id: KEYCHECK_ID } }
  if (held?._rev) next._rev = held._rev
  await mirror.put(next)
}

/** Writes the pinned key check back to a server that lost it (deleted, or never had it). */
async function putBack(remote: KeycheckStore, pinned: KeycheckDoc): Promise<void> {
  const doc: Record<string, unknown> = { _id: KEYCHECK_ID }
  for (const f of PINNED) doc[f] = pinned[f]
  try {
    await remote.put(doc)
  } catch (error) {
    throw new SyncServerError('could not put the key check back', { cause: error })
  }
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

async function read(store: KeycheckStore, id = KEYCHECK_ID): Promise<KeycheckDoc | undefined> {
  try {
    return (await store.get(id)) as KeycheckDoc
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

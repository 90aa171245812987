import { EncryptionError } from '../../core/errors.ts'
import type { AtRestSecret } from '../../core/types.ts'
import type { EngramDatabase } from '../database.ts'
import { type AtRestKeys, deriveAtRestKeys, openBytes, sealBytes } from './cipher.ts'
import { DEFAULT_KDF_ITERATIONS, passphraseKey } from './kdf.ts'
import {
  AT_REST_META_KEY,
  type AtRestRecord,
  CHECK_CONTEXT_V1,
  CHECK_CONTEXT_V2,
  CHECK_TEXT,
  formatRecord,
  readRecord,
} from './key-check-record.ts'
import { resealRows } from './reseal.ts'
import { SEAL_FORMAT, type SealFormat } from './row-seal.ts'

export { AT_REST_META_KEY, type AtRestRecord, formatRecord, readRecord }

/**
 * Sets up `db` (open, its `atRest` state plain) for `secret`: opens an encrypted memory (and
 * reseals one sealed in an older format, `reseal.ts`), turns encryption on for a new one, or
 * leaves a plain one plain. Runs before anything reads a row.
 *
 * @throws EncryptionError `KEY_REQUIRED` (encrypted, no secret), `WRONG_KEY`, `NOT_EMPTY`
 *   (a secret for a memory that already holds plain rows), `NEWER_FORMAT` (sealed by a later
 *   Engram). Nothing is written on any of them.
 */
export async function openAtRest(
  db: EngramDatabase,
  secret: AtRestSecret | undefined,
): Promise<void> {
  const record = await readRecord(db)
  if (!record && !secret) return
  if (record && !secret) {
    throw new EncryptionError(
      'KEY_REQUIRED',
      `memory ${JSON.stringify(db.name)} is encrypted at rest: open it with its passphrase or key`,
    )
  }
  if (!record) {
    db.atRest.unlock(await encryptNew(db, secret!))
    return
  }
  const { keys, format } = await checkedKeys(record, secret!)
  if (format !== SEAL_FORMAT) await resealRows(db, keys)
  else {
    // Sealed by the version that brought format 2 but still checked under format 1's context.
    if (record.version !== SEAL_FORMAT || !opens(keys, CHECK_CONTEXT_V2, record.check)) {
      await db.meta.put({ key: AT_REST_META_KEY, value: formatRecord(record, keys) })
    }
    db.atRest.unlock(keys)
  }
}

/** The keys for `secret` once they open the stored check value. @throws EncryptionError */
export async function unlockKeys(db: EngramDatabase, secret: AtRestSecret): Promise<AtRestKeys> {
  const record = await readRecord(db)
  if (!record) {
    throw new EncryptionError('NOT_ENCRYPTED', 'this memory is not encrypted at rest')
  }
  return (await checkedKeys(record, secret)).keys
}

async function keysFor(
  secret: AtRestSecret,
  salt: Uint8Array,
  iterations: number,
): Promise<AtRestKeys> {
  const base =
    'key' in secret ? secret.key : await passphraseKey(secret.passphrase, salt, iterations)
  return deriveAtRestKeys(base, salt)
}

function opens(keys: AtRestKeys, context: string, check: Uint8Array): boolean {
  try {
    openBytes(keys, context, check)
    return true
  } catch {
    return false
  }
}

/**
 * The keys for `secret` and the memory's seal format, told by the context its check opens under:
 * format 2's means format 2 whatever `version` says. One under format 1's is a memory sealed
 * before format 2 (`version` 1) or by the version that brought it (`version` 2, its check not yet
 * resealed).
 */
async function checkedKeys(
  record: AtRestRecord,
  secret: AtRestSecret,
): Promise<{ keys: AtRestKeys; format: SealFormat }> {
  if (!(typeof record.version === 'number' && record.version <= SEAL_FORMAT)) {
    throw new EncryptionError(
      'NEWER_FORMAT',
      `expected a memory sealed in format ${SEAL_FORMAT} or older, got format ${String(record.version)}: open it with the Engram version that wrote it`,
    )
  }
  const keys = await keysFor(secret, record.salt, record.iterations)
  if (opens(keys, CHECK_CONTEXT_V2, record.check)) return { keys, format: SEAL_FORMAT }
  if (opens(keys, CHECK_CONTEXT_V1, record.check)) {
    return { keys, format: record.version === SEAL_FORMAT ? SEAL_FORMAT : 1 }
  }
  throw new EncryptionError('WRONG_KEY', 'the passphrase or key does not open this memory')
}

/**
 * Writes the `at-rest` row for a memory with no rows yet. In one transaction with the emptiness
 * check, and by `add`: of two tabs encrypting the same new memory, the second adopts the first's
 * salt (and must then hold the same secret).
 */
async function encryptNew(db: EngramDatabase, secret: AtRestSecret): Promise<AtRestKeys> {
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(16))
  const iterations = ('passphrase' in secret && secret.iterations) || DEFAULT_KDF_ITERATIONS
  const keys = await keysFor(secret, salt, iterations)
  const record: AtRestRecord = {
    version: SEAL_FORMAT,
    kdf: 'PBKDF2-SHA-256',
    iterations,
    salt,
    check: sealBytes(keys, CHECK_CONTEXT_V2, CHECK_TEXT),
  }
  const tables = [db.meta, db.memories, db.vectors, db.snapshots, db.recalls]
  const stored = await db.transaction('rw', tables, async () => {
    const held = await readRecord(db)
    if (held) return held
    const counts = await Promise.all(tables.slice(1).map((t) => t.count()))
    if (counts.some((n) => n > 0)) {
      throw new EncryptionError(
        'NOT_EMPTY',
        'this memory already holds unencrypted rows: export it, then import into a new encrypted memory',
      )
    }
    await db.meta.add({ key: AT_REST_META_KEY, value: record })
    return record
  })
  return stored === record ? keys : (await checkedKeys(stored, secret)).keys
}

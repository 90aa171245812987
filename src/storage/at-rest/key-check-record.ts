/**
 * The `at-rest` meta row: its key, its shape, how it is read and rewritten. Apart from
 * `key-check.ts` so the reseal (which rewrites it) and the key check (which runs the reseal) do
 * not import each other.
 */
import type { EngramDatabase } from '../database.ts'
import { type AtRestKeys, sealBytes } from './cipher.ts'
import { SEAL_FORMAT, type SealFormat } from './row-seal.ts'

/** The `meta` row that marks a memory as encrypted: plain, so a wrong secret is caught first. */
export const AT_REST_META_KEY = 'at-rest'

/**
 * The check value's associated data. Format 1's was the first; a memory in format 2 seals its
 * check under the second, so the format is bound to the keys: `version` is plain, and an edit
 * to it (back to 1, to have planted format-1 rows resealed as valid) changes nothing.
 */
export const CHECK_CONTEXT_V1 = 'engram-at-rest keycheck'
export const CHECK_CONTEXT_V2 = 'engram-at-rest keycheck\u0000v2'
export const CHECK_TEXT = new TextEncoder().encode('engram-at-rest keycheck v1')

/**
 * What the `at-rest` meta row holds: how to derive the keys, and a value sealed under them.
 * `version` is the memory's seal format (`row-seal.ts` `SealFormat`): every row is in it. It is
 * stored in the clear; what counts is the context `check` opens under (format 2's, or 1's).
 */
export interface AtRestRecord {
  version: SealFormat
  kdf: 'PBKDF2-SHA-256'
  iterations: number
  salt: Uint8Array
  /** A known text sealed with the keys: opening it proves a secret right without a row read. */
  check: Uint8Array
}

/** `record` marked as in the current format, its check value sealed under that format's context. */
export function formatRecord(record: AtRestRecord, keys: AtRestKeys): AtRestRecord {
  return { ...record, version: SEAL_FORMAT, check: sealBytes(keys, CHECK_CONTEXT_V2, CHECK_TEXT) }
}

/** The `at-rest` meta row, when the memory is encrypted. */
export async function readRecord(db: EngramDatabase): Promise<AtRestRecord | undefined> {
  return (await db.meta.get(AT_REST_META_KEY))?.value as AtRestRecord | undefined
}

import { canonicalJson, fromBase64Url, toBase64Url } from './bytes.ts'
import { keyedHash, type SyncKeys, subtle } from './sync-keys.ts'

/** Bump when the sealed envelope changes incompatibly. */
export const SEALED_VERSION = 1

/** What the server stores for a live document: an opaque id and ciphertext, nothing else. */
export interface SealedFields {
  /** Envelope version. */
  v: number
  /** 96-bit AES-GCM IV, base64url. */
  iv: string
  /** Ciphertext and tag, base64url. */
  ct: string
}

const decoder = new TextDecoder()
const encoder = new TextEncoder()

/**
 * Encrypts a JSON value with AES-256-GCM. The IV is synthetic (a keyed hash of the plaintext,
 * as in SIV modes): the same value always seals to the same bytes, so two devices that merge a
 * conflict to the same result write the same CouchDB revision instead of a new conflict, and an
 * unchanged memory is recognised without decrypting. An IV repeats only for an identical
 * plaintext, which GCM tolerates; what it reveals is that two sealed values are equal.
 */
export async function seal(keys: SyncKeys, docId: string, value: unknown): Promise<SealedFields> {
  const plain = encoder.encode(canonicalJson(value))
  const iv = (await keyedHash(keys, 'iv', [docId, decoder.decode(plain)])).slice(0, 12)
  const ct = await subtle().encrypt(
    // The document id is bound as additional data: a sealed body moved to another id fails.
    { name: 'AES-GCM', iv: iv as BufferSource, additionalData: encoder.encode(docId) },
    keys.seal,
    plain,
  )
  return { v: SEALED_VERSION, iv: toBase64Url(iv), ct: toBase64Url(new Uint8Array(ct)) }
}

/** Decrypts what {@link seal} made. Throws (an `OperationError`) for a wrong key or a tampered body. */
export async function unseal<T>(keys: SyncKeys, docId: string, fields: SealedFields): Promise<T> {
  if (fields.v !== SEALED_VERSION) throw new TypeError(`unsupported sealed version ${fields.v}`)
  const plain = await subtle().decrypt(
    {
      name: 'AES-GCM',
      iv: fromBase64Url(fields.iv) as BufferSource,
      additionalData: encoder.encode(docId),
    },
    keys.seal,
    fromBase64Url(fields.ct) as BufferSource,
  )
  return JSON.parse(decoder.decode(plain)) as T
}

/** Whether two sealed bodies are the same bytes (the IV alone would miss a tampered ciphertext). */
export function sameSeal(
  a: Partial<SealedFields> | undefined,
  b: Partial<SealedFields> | undefined,
): boolean {
  return a !== undefined && b !== undefined && a.v === b.v && a.iv === b.iv && a.ct === b.ct
}

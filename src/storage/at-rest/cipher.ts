import { xchacha20poly1305 } from '@noble/ciphers/chacha.js'
import { bytesToHex, randomBytes } from '@noble/ciphers/utils.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { webCrypto } from './kdf.ts'

/**
 * The two raw keys encryption at rest works with, derived from the owner's secret and held only
 * while unlocked: `seal` (XChaCha20-Poly1305) encrypts row contents, `mac` (HMAC-SHA-256) turns
 * indexed values (the exact-dedup key, tags) into tokens that still match by equality.
 *
 * Raw bytes rather than `CryptoKey`s because IndexedDB commits a transaction as soon as no
 * request is pending at the end of a task: an `await` on WebCrypto inside a write would end it.
 * `@noble/ciphers` and `@noble/hashes` are synchronous.
 *
 * XChaCha20-Poly1305 rather than AES-256-GCM (sync's cipher, where WebCrypto does the work):
 * in JavaScript, GCM builds key-dependent GHASH tables on every call, which made sealing a row
 * 2-3 times slower (about 230 µs against 80 µs per row, and 760 against 365 ms for an 8 MB
 * snapshot, in Node 20); and its 192-bit random nonces have no birthday bound to watch, where
 * GCM's 96-bit ones allow about 2^32 seals per key.
 */
export interface AtRestKeys {
  readonly seal: Uint8Array
  readonly mac: Uint8Array
}

const encoder = new TextEncoder()
const keyedHmacs = new WeakMap<AtRestKeys, ReturnType<typeof hmac.create>>()
const NONCE_BYTES = 24
/** Bytes of HMAC kept in a token: 128 bits, far past any collision a store could reach. */
const TOKEN_BYTES = 16

/**
 * The at-rest keys from an HKDF base key (a passphrase's, or the app's own: the same kind of key
 * sync takes), separated from sync's by their HKDF labels.
 */
export async function deriveAtRestKeys(base: CryptoKey, salt: Uint8Array): Promise<AtRestKeys> {
  const s = webCrypto('encryption at rest')
  const raw = async (info: string) => {
    const params = {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: salt as BufferSource,
      info: encoder.encode(info),
    }
    const key = await s.deriveKey(
      params,
      base,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      true,
      ['sign'],
    )
    return new Uint8Array(await s.exportKey('raw', key))
  }
  const [seal, mac] = await Promise.all([
    raw('engram-at-rest seal v1'),
    raw('engram-at-rest mac v1'),
  ])
  return { seal, mac }
}

/** XChaCha20-Poly1305 of `plain` under a fresh random nonce: `nonce | ciphertext | tag`. */
export function sealBytes(keys: AtRestKeys, aad: string, plain: Uint8Array): Uint8Array {
  const nonce = randomBytes(NONCE_BYTES)
  const body = xchacha20poly1305(keys.seal, nonce, encoder.encode(aad)).encrypt(plain)
  const out = new Uint8Array(NONCE_BYTES + body.length)
  out.set(nonce)
  out.set(body, NONCE_BYTES)
  return out
}

/** The bytes {@link sealBytes} sealed; throws when the key, the `aad` or a byte differs. */
export function openBytes(keys: AtRestKeys, aad: string, sealed: Uint8Array): Uint8Array {
  const nonce = sealed.subarray(0, NONCE_BYTES)
  return xchacha20poly1305(keys.seal, nonce, encoder.encode(aad)).decrypt(
    sealed.subarray(NONCE_BYTES),
  )
}

/** Wipes what {@link tokenOf} derived from `keys` (the keyed HMAC state). */
export function forgetKeys(keys: AtRestKeys): void {
  keyedHmacs.get(keys)?.destroy()
  keyedHmacs.delete(keys)
}

/** A keyed token for an indexed value: equal values give equal tokens, and reveal nothing else. */
export function tokenOf(keys: AtRestKeys, purpose: string, value: string): string {
  let keyed = keyedHmacs.get(keys)
  if (!keyed) {
    keyed = hmac.create(sha256, keys.mac)
    keyedHmacs.set(keys, keyed)
  }
  // A clone of the keyed state skips hashing the key pads again for every token.
  const digest = keyed
    .clone()
    .update(encoder.encode(`${purpose}\u0000${value}`))
    .digest()
  return bytesToHex(digest.subarray(0, TOKEN_BYTES))
}

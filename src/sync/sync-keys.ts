import { toBase64Url } from './bytes.ts'

/**
 * The two keys a sync session works with, both derived from the user's secret and never sent:
 * `seal` encrypts documents (AES-256-GCM), `mac` names them and picks their IVs (HMAC-SHA-256).
 */
export interface SyncKeys {
  seal: CryptoKey
  mac: CryptoKey
}

// One passphrase stretch for sync and for encryption at rest (storage/at-rest/kdf.ts).
export { DEFAULT_KDF_ITERATIONS, passphraseKey } from '../storage/index.ts'

const encoder = new TextEncoder()

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle
  // Browsers hide WebCrypto outside secure contexts (plain http other than localhost).
  if (!s) throw new TypeError('sync needs WebCrypto (crypto.subtle): serve the page over https')
  return s
}

/** Random bytes for a new salt. */
export function randomSalt(length = 16): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length))
}

/**
 * The session keys from an HKDF base key (from {@link passphraseKey}, or one the app supplies:
 * `crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey'])`), separated by purpose.
 */
export async function deriveSyncKeys(base: CryptoKey, salt: Uint8Array): Promise<SyncKeys> {
  const s = subtle()
  const hkdf = (info: string) => ({
    name: 'HKDF',
    hash: 'SHA-256',
    salt: salt as BufferSource,
    info: encoder.encode(info),
  })
  const [seal, mac] = await Promise.all([
    s.deriveKey(hkdf('engram-sync seal v1'), base, { name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]),
    s.deriveKey(hkdf('engram-sync mac v1'), base, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]),
  ])
  return { seal, mac }
}

/** HMAC-SHA-256 of `parts` joined by NUL, under a purpose label so ids and IVs never coincide. */
export async function keyedHash(
  keys: SyncKeys,
  purpose: string,
  parts: string[],
): Promise<Uint8Array> {
  const data = encoder.encode([purpose, ...parts].join('\u0000'))
  return new Uint8Array(await subtle().sign('HMAC', keys.mac, data))
}

/**
 * The replicated id of a memory: a keyed hash of namespace, type and exact-dedup key, so the
 * same fact written on two devices is one document, and the id reveals nothing of the text.
 *
 * @example
 * await memoryDocId(keys, 'default', 'fact', 'the owner prefers metric units')
 * // => 'm:3q2…' (43 base64url characters after the prefix)
 */
export async function memoryDocId(
  keys: SyncKeys,
  identity: { namespace: string; type: string; key: string },
): Promise<string> {
  const hash = await keyedHash(keys, 'id', [identity.namespace, identity.type, identity.key])
  return `m:${toBase64Url(hash)}`
}

export { subtle }

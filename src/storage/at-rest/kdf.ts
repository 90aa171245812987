/**
 * Passphrase stretching shared by the two places Engram keys data from a secret: sync (end to
 * end) and encryption at rest. Async WebCrypto, so it runs before any transaction opens.
 */

/** PBKDF2-SHA-256 rounds for a passphrase: OWASP's 2023 floor for this hash. */
export const DEFAULT_KDF_ITERATIONS = 600_000

const encoder = new TextEncoder()

/** WebCrypto's `subtle`, or a `TypeError` saying why it is missing. */
export function webCrypto(purpose: string): SubtleCrypto {
  const s = globalThis.crypto?.subtle
  // Browsers hide WebCrypto outside secure contexts (plain http other than localhost).
  if (!s)
    throw new TypeError(`${purpose} needs WebCrypto (crypto.subtle): serve the page over https`)
  return s
}

/**
 * The HKDF base key of a passphrase: PBKDF2-SHA-256 over `salt`, slow on purpose, since what
 * it protects (a server's documents, a copied profile folder) can be attacked offline.
 */
export async function passphraseKey(
  passphrase: string,
  salt: Uint8Array,
  iterations: number,
): Promise<CryptoKey> {
  const s = webCrypto('a passphrase')
  const raw = await s.importKey(
    'raw',
    encoder.encode(passphrase.normalize('NFC')),
    'PBKDF2',
    false,
    ['deriveBits'],
  )
  const bits = await s.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    raw,
    256,
  )
  return s.importKey('raw', bits, 'HKDF', false, ['deriveKey'])
}

/**
 * Vectors as text, in an export and in a sync payload: base64 of the float32 bytes (platform
 * byte order, little-endian in practice).
 */

export function vectorToBase64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength)
  let binary = ''
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return btoa(binary)
}

/** @throws Error when the text is not base64 of a whole number of float32s. */
export function vectorFromBase64(text: string): Float32Array {
  const binary = atob(text)
  if (binary.length % 4 !== 0) throw new Error('vector bytes are not a whole number of float32s')
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return new Float32Array(bytes.buffer)
}

/**
 * Seeded randomness for model weights. Each tensor draws from its own stream, seeded by the
 * preset's seed and the tensor's name, so adding a tensor never changes the others.
 */

/** FNV-1a over UTF-16 code units: a 32-bit seed from a string. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** mulberry32: uniform floats in [0, 1). Fast, and plenty for initialising weights. */
export function uniform(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `size` draws from N(0, std²), Box–Muller over a {@link uniform} stream. */
export function normal(seed: number, size: number, std: number): Float32Array {
  const next = uniform(seed)
  const out = new Float32Array(size)
  for (let i = 0; i < size; i += 2) {
    const u = 1 - next()
    const v = next()
    const r = std * Math.sqrt(-2 * Math.log(u))
    out[i] = r * Math.cos(2 * Math.PI * v)
    if (i + 1 < size) out[i + 1] = r * Math.sin(2 * Math.PI * v)
  }
  return out
}

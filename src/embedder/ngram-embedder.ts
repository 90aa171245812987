import type { Embedder, EmbedderState, EmbedderStats, EmbedKind } from '../core/types.ts'

/** Options of the deterministic test embedder. */
export interface NgramEmbedderOptions {
  /** Vector length. @default 384 */
  dims?: number
  /** Character n-gram length hashed alongside whole words. @default 3 */
  n?: number
}

const NGRAM_MODEL = 'engram/ngram-hash'

/**
 * A deterministic, dependency-free embedder for tests, evaluation baselines and benchmarks:
 * hashed word unigrams plus character n-grams (feature hashing with a sign bit), L2-normalised.
 * It knows nothing of meaning, only of shared spelling, so texts that share words and word
 * pieces land close together. It is NOT a language model; the product uses
 * `TransformersEmbedder`.
 *
 * @example
 * const e = new NgramEmbedder({ dims: 64 })
 * const [a, b] = await e.embed(['metric units', 'metric unit'], { kind: 'passage' })
 * // a and b have cosine ≈ 0.8; unrelated text ≈ 0
 */
export class NgramEmbedder implements Embedder {
  readonly model = NGRAM_MODEL
  readonly dims: number
  readonly state: EmbedderState = 'ready'
  readonly #n: number

  constructor(options: NgramEmbedderOptions = {}) {
    this.dims = options.dims ?? 384
    this.#n = options.n ?? 3
  }

  async load(): Promise<void> {}

  async embed(texts: string[], _options: { kind: EmbedKind }): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text))
  }

  /** Synchronous form, for benchmarks and fixtures. */
  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dims)
    const words =
      text
        .toLowerCase()
        .normalize('NFKC')
        .match(/[\p{L}\p{N}]+/gu) ?? []
    for (const word of words) {
      // Whole words weigh more than their pieces so that shared words dominate shared spelling.
      this.#add(vector, `w:${word}`, 2)
      const padded = ` ${word} `
      for (let i = 0; i + this.#n <= padded.length; i++) {
        this.#add(vector, padded.slice(i, i + this.#n), 1)
      }
    }
    let norm = 0
    for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!
    if (norm === 0) {
      // Text without letters or digits still needs a valid unit vector.
      vector[0] = 1
      return vector
    }
    const scale = 1 / Math.sqrt(norm)
    for (let i = 0; i < vector.length; i++) vector[i]! *= scale
    return vector
  }

  stats(): EmbedderStats {
    return { model: this.model, dims: this.dims, state: this.state, device: 'cpu' }
  }

  #add(vector: Float32Array, feature: string, weight: number): void {
    const h = fnv1a(feature)
    const index = h % this.dims
    vector[index]! += h & 0x80000000 ? -weight : weight
  }
}

/** 32-bit FNV-1a: stable across runtimes, good enough spread for feature hashing. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

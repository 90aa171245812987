/**
 * An on-disk cache of embeddings for evaluation runs: a slow real encoder (USE-lite at ~7 ms a
 * sentence) embeds each text once, ever; later runs read the vector back. One append-only file
 * per model under `.scratch/embed-cache/` (gitignored): records of a 20-byte SHA-1 of
 * `kind + text` followed by `dims` float32s.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Embedder, EmbedderStats, EmbedKind } from '../../src/core/types.ts'

export const DEFAULT_CACHE_DIR = '.scratch/embed-cache'

const HASH_BYTES = 20

/**
 * Wraps an embedder with the cache. `sameForQueries` says queries and passages embed alike
 * (no query instruction), so one vector serves both.
 */
export class CachedEmbedder implements Embedder {
  readonly #inner: Embedder
  readonly #file: string
  readonly #sameForQueries: boolean
  readonly #vectors = new Map<string, Float32Array>()
  /** Texts the wrapped embedder actually embedded, for the run's log. */
  misses = 0
  hits = 0

  constructor(inner: Embedder, options: { dir?: string; sameForQueries?: boolean } = {}) {
    this.#inner = inner
    this.#sameForQueries = options.sameForQueries ?? false
    const dir = options.dir ?? DEFAULT_CACHE_DIR
    mkdirSync(dir, { recursive: true })
    this.#file = join(dir, `${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.bin`)
  }

  get model() {
    return this.#inner.model
  }
  get dims() {
    return this.#inner.dims
  }
  get state() {
    return this.#inner.state
  }
  stats(): EmbedderStats {
    return this.#inner.stats()
  }
  // No dispose(): an engine disposes its embedder on close, and one cache serves many engines
  // (one per store); the process exit releases the model.

  async load(): Promise<void> {
    await this.#inner.load()
    if (this.#vectors.size > 0 || !existsSync(this.#file)) return
    const bytes = readFileSync(this.#file)
    const record = HASH_BYTES + 4 * this.dims
    for (let at = 0; at + record <= bytes.byteLength; at += record) {
      const key = bytes.subarray(at, at + HASH_BYTES).toString('hex')
      const floats = new Float32Array(this.dims)
      new Uint8Array(floats.buffer).set(bytes.subarray(at + HASH_BYTES, at + record))
      this.#vectors.set(key, floats)
    }
  }

  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    const keys = texts.map((text) => this.#key(text, options.kind))
    const missing = [...new Set(keys.filter((k) => !this.#vectors.has(k)))]
    if (missing.length > 0) {
      const textOf = new Map(keys.map((k, i) => [k, texts[i]!]))
      const vectors = await this.#inner.embed(
        missing.map((k) => textOf.get(k)!),
        options,
      )
      const out = Buffer.alloc(missing.length * (HASH_BYTES + 4 * this.dims))
      missing.forEach((k, i) => {
        const v = vectors[i]!
        this.#vectors.set(k, v)
        const at = i * (HASH_BYTES + 4 * this.dims)
        Buffer.from(k, 'hex').copy(out, at)
        Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(out, at + HASH_BYTES)
      })
      appendFileSync(this.#file, new Uint8Array(out))
      this.misses += missing.length
    }
    this.hits += texts.length - missing.length
    // Copies: callers (the vector index) may keep or transfer what they get.
    return keys.map((k) => this.#vectors.get(k)!.slice())
  }

  #key(text: string, kind: EmbedKind): string {
    const tag = this.#sameForQueries ? 'any' : kind
    return createHash('sha1').update(`${tag}\0${text}`).digest('hex')
  }
}

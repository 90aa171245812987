/**
 * BASELINE, not Engram: the plain Okapi BM25 that shared/eval/README.md quotes, rebuilt here so
 * the comparison runs in the same process over the same memories. k1 1.2, b 0.75, lower-case
 * ASCII alphanumeric tokens, no stemming, no stop words, Lucene's non-negative idf. Memory text
 * only (no tags or aliases). Ties keep insertion order.
 */

const tokens = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

export class PlainBm25 {
  readonly #docs: { id: string; tf: Map<string, number>; length: number }[] = []
  readonly #df = new Map<string, number>()
  #totalLength = 0

  constructor(
    readonly k1 = 1.2,
    readonly b = 0.75,
  ) {}

  add(id: string, text: string): void {
    const tf = new Map<string, number>()
    const words = tokens(text)
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1)
    for (const w of tf.keys()) this.#df.set(w, (this.#df.get(w) ?? 0) + 1)
    this.#docs.push({ id, tf, length: words.length })
    this.#totalLength += words.length
  }

  /** Ids of the `k` best-scoring memories sharing at least one term with the query. */
  search(query: string, k: number): string[] {
    const n = this.#docs.length
    const avg = this.#totalLength / Math.max(1, n)
    const terms = [...new Set(tokens(query))]
    const scored: { id: string; score: number; at: number }[] = []
    this.#docs.forEach((doc, at) => {
      let score = 0
      for (const t of terms) {
        const f = doc.tf.get(t)
        if (!f) continue
        const df = this.#df.get(t)!
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5))
        score +=
          (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * doc.length) / avg))
      }
      if (score > 0) scored.push({ id: doc.id, score, at })
    })
    scored.sort((x, y) => y.score - x.score || x.at - y.at)
    return scored.slice(0, k).map((s) => s.id)
  }
}

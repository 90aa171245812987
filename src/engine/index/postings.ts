/**
 * MiniSearch's postings kept encoded: a term's field id → short id → frequency maps, read from
 * one shared `Uint32Array` rather than held as a `Map` per term and per field. A posting costs
 * 8 bytes there against some 25 in a `Map` (and two `Map`s a term), which was most of the
 * keyword index's heap (issue 25: 50.9 MB live against 8.9 MB encoded for 22k texts). Both
 * classes are `Map`s to MiniSearch, which reads and changes postings through `Map`'s methods
 * only; what it adds or removes later is kept beside the encoded part, never decoded into it.
 *
 * Layout, per term: its field count, then per field its id, its posting count and its
 * (short id, frequency) pairs.
 */

/** A Uint32Array that grows by doubling, for encoding postings without a number[] detour. */
export class Words {
  array: Uint32Array
  length = 0
  /** `capacity` exact when known (see {@link wordsOf}): then nothing is copied to grow or end. */
  constructor(capacity = 1024) {
    this.array = new Uint32Array(capacity)
  }
  push(word: number): void {
    if (this.length === this.array.length) this.#grow(this.length + 1)
    this.array[this.length++] = word
  }
  copy(from: Uint32Array, start: number, end: number): void {
    if (this.length + (end - start) > this.array.length) this.#grow(this.length + (end - start))
    this.array.set(from.subarray(start, end), this.length)
    this.length += end - start
  }
  /** The words pushed, in an array of their own size. */
  done(): Uint32Array {
    return this.length === this.array.length ? this.array : this.array.slice(0, this.length)
  }
  #grow(least: number): void {
    let size = this.array.length * 2
    while (size < least) size *= 2
    const next = new Uint32Array(size)
    next.set(this.array.subarray(0, this.length))
    this.array = next
  }
}

/** Where a term's encoded postings starting at `at` end. */
export function endOf(codes: Uint32Array, at: number): number {
  const fields = codes[at++] as number
  for (let f = 0; f < fields; f++) at += 2 + 2 * (codes[at + 1] as number)
  return at
}

/** How many words {@link encodeTerm} writes for one term's postings. */
export function wordsOf(data: Map<number, Map<number, number>>): number {
  const whole = data instanceof TermPostings ? data.encoded : undefined
  if (whole) return endOf(whole.codes, whole.at) - whole.at
  let words = 1
  for (const docs of data.values()) words += 2 + 2 * docs.size
  return words
}

/** Appends one term's postings (a `Map` of any kind here) to `out`, encoded parts copied. */
export function encodeTerm(data: Map<number, Map<number, number>>, out: Words): void {
  const whole = data instanceof TermPostings ? data.encoded : undefined
  if (whole) {
    out.copy(whole.codes, whole.at, endOf(whole.codes, whole.at))
    return
  }
  out.push(data.size)
  for (const [field, docs] of data) {
    out.push(field)
    out.push(docs.size)
    if (docs instanceof FieldPostings) docs.encodeInto(out)
    else
      for (const [doc, freq] of docs) {
        out.push(doc)
        out.push(freq)
      }
  }
}

/**
 * One term's postings, field id → {@link FieldPostings}, read from the codes the first time
 * anything asks (a few objects, no posting decoded).
 */
export class TermPostings extends Map<number, Map<number, number>> {
  #codes: Uint32Array | undefined
  #at = 0

  static of(codes: Uint32Array, at: number): TermPostings {
    return new TermPostings().rebase(codes, at)
  }

  /** Points this term at its postings in `codes` from `at`, whatever it held before. */
  rebase(codes: Uint32Array, at: number): this {
    super.clear()
    this.#codes = codes
    this.#at = at
    return this
  }

  /** The encoded postings and where they start, while no one has touched them. */
  get encoded(): { codes: Uint32Array; at: number } | undefined {
    return this.#codes ? { codes: this.#codes, at: this.#at } : undefined
  }

  #open(): void {
    const codes = this.#codes
    if (!codes) return
    this.#codes = undefined
    let at = this.#at
    const fields = codes[at++] as number
    for (let f = 0; f < fields; f++) {
      const field = codes[at] as number
      const count = codes[at + 1] as number
      super.set(field, FieldPostings.of(codes, at + 2, count))
      at += 2 + 2 * count
    }
  }

  override get size(): number {
    this.#open()
    return super.size
  }
  override get(key: number): Map<number, number> | undefined {
    this.#open()
    return super.get(key)
  }
  override has(key: number): boolean {
    this.#open()
    return super.has(key)
  }
  override set(key: number, value: Map<number, number>): this {
    this.#open()
    return super.set(key, value)
  }
  override delete(key: number): boolean {
    this.#open()
    return super.delete(key)
  }
  override clear(): void {
    this.#codes = undefined
    super.clear()
  }
  override forEach(
    fn: (value: Map<number, number>, key: number, map: Map<number, Map<number, number>>) => void,
    self?: unknown,
  ): void {
    this.#open()
    super.forEach(fn, self)
  }
  override keys(): MapIterator<number> {
    this.#open()
    return super.keys()
  }
  override values(): MapIterator<Map<number, number>> {
    this.#open()
    return super.values()
  }
  override entries(): MapIterator<[number, Map<number, number>]> {
    this.#open()
    return super.entries()
  }
  override [Symbol.iterator](): MapIterator<[number, Map<number, number>]> {
    return this.entries()
  }
}

/**
 * One field's postings of one term, short id → frequency: `count` encoded pairs from `from` in
 * the codes (the base), then the documents added since, in the `Map` itself. A base posting
 * deleted or set again is noted beside the base, which no change decodes; iteration order is a
 * `Map`'s. Lookups in the base are binary searches (MiniSearch numbers documents in the order they
 * arrive, so a field's short ids ascend), with the last one iterated tried first: a search reads
 * each posting's frequency right after iterating to it. A base found out of order (never seen)
 * is moved into the `Map`, order kept.
 */
export class FieldPostings extends Map<number, number> {
  #codes: Uint32Array | undefined
  #from = 0
  #count = 0
  /** Base short ids deleted. */
  #deleted: Set<number> | undefined
  /** Base short ids set again, with their frequency now (they keep their place). */
  #changed: Map<number, number> | undefined
  /** Whether the base's short ids ascend; found by the first lookup. */
  #sorted: boolean | undefined
  /** The base pair the last iteration stopped at. */
  #hint = 0

  static of(codes: Uint32Array, from: number, count: number): FieldPostings {
    const postings = new FieldPostings()
    if (count > 0) {
      postings.#codes = codes
      postings.#from = from
      postings.#count = count
    }
    return postings
  }

  /** Appends this field's pairs (no count) to `out`: the base copied when none changed. */
  encodeInto(out: Words): void {
    const codes = this.#codes
    if (codes && !this.#deleted?.size && !this.#changed?.size)
      out.copy(codes, this.#from, this.#from + 2 * this.#count)
    else if (codes)
      for (let i = 0, at = this.#from; i < this.#count; i++, at += 2) {
        const doc = codes[at] as number
        if (this.#deleted?.has(doc)) continue
        out.push(doc)
        out.push(this.#changed?.get(doc) ?? (codes[at + 1] as number))
      }
    for (const [doc, freq] of super.entries()) {
      out.push(doc)
      out.push(freq)
    }
  }

  override get size(): number {
    return this.#count - (this.#deleted?.size ?? 0) + super.size
  }
  override get(doc: number): number | undefined {
    const codes = this.#base()
    const freq = super.get(doc)
    if (freq !== undefined || !codes) return freq
    const at = this.#find(codes, doc)
    return at < 0 ? undefined : (this.#changed?.get(doc) ?? codes[at + 1])
  }
  override has(doc: number): boolean {
    const codes = this.#base()
    return super.has(doc) || (codes !== undefined && this.#find(codes, doc) >= 0)
  }
  override set(doc: number, freq: number): this {
    const codes = this.#base()
    if (!codes || super.has(doc) || this.#find(codes, doc) < 0) return super.set(doc, freq)
    this.#changed ??= new Map()
    this.#changed.set(doc, freq)
    return this
  }
  override delete(doc: number): boolean {
    const codes = this.#base()
    if (super.delete(doc)) return true
    if (!codes || this.#find(codes, doc) < 0) return false
    this.#deleted ??= new Set()
    this.#deleted.add(doc)
    this.#changed?.delete(doc)
    return true
  }
  override clear(): void {
    this.#codes = undefined
    this.#count = 0
    this.#deleted = undefined
    this.#changed = undefined
    super.clear()
  }
  override forEach(
    fn: (value: number, key: number, map: Map<number, number>) => void,
    self?: unknown,
  ): void {
    for (const [doc, freq] of this.entries()) fn.call(self, freq, doc, this)
  }
  override keys(): MapIterator<number> {
    return this.#pairs((doc) => doc)
  }
  override values(): MapIterator<number> {
    return this.#pairs((_, freq) => freq)
  }
  override entries(): MapIterator<[number, number]> {
    return this.#pairs((doc, freq) => [doc, freq])
  }
  override [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries()
  }

  /**
   * The base's live pairs, then the `Map`'s, as `pick` makes them. Changes while iterating are
   * seen as a `Map`'s are: a base pair deleted before it is reached is skipped, one set again
   * yields its new frequency in its place.
   */
  *#pairs<T>(pick: (doc: number, freq: number) => T): MapIterator<T> {
    // Its order known first, so the base is not moved into the `Map` halfway through.
    const codes = this.#base()
    if (codes) {
      const from = this.#from
      for (let i = 0; i < this.#count; i++) {
        const doc = codes[from + 2 * i] as number
        if (this.#deleted?.has(doc)) continue
        this.#hint = i
        yield pick(doc, this.#changed?.get(doc) ?? (codes[from + 2 * i + 1] as number))
      }
    }
    for (const [doc, freq] of super.entries()) yield pick(doc, freq)
  }

  /** The base, once its order is known to allow binary search (else moved into the `Map`). */
  #base(): Uint32Array | undefined {
    if (this.#codes && this.#sorted === undefined) this.#checkOrder()
    return this.#codes
  }

  /** Where `doc`'s live pair is in the base `codes`, or -1. */
  #find(codes: Uint32Array, doc: number): number {
    if (this.#deleted?.has(doc)) return -1
    const from = this.#from
    const hinted = from + 2 * this.#hint
    if (codes[hinted] === doc) return hinted
    let lo = 0
    let hi = this.#count - 1
    // New documents take the next short id, past the last: an add's lookup ends here.
    if (doc > (codes[from + 2 * hi] as number) || doc < (codes[from] as number)) return -1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const at = codes[from + 2 * mid] as number
      if (at === doc) return from + 2 * mid
      if (at < doc) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }

  #checkOrder(): void {
    const codes = this.#codes!
    const from = this.#from
    let sorted = true
    for (let i = 1; i < this.#count && sorted; i++)
      sorted = (codes[from + 2 * i] as number) > (codes[from + 2 * i - 2] as number)
    this.#sorted = sorted
    if (sorted) return
    const later = [...super.entries()]
    super.clear()
    for (let i = 0; i < this.#count; i++) {
      const doc = codes[from + 2 * i] as number
      if (!this.#deleted?.has(doc))
        super.set(doc, this.#changed?.get(doc) ?? (codes[from + 2 * i + 1] as number))
    }
    for (const [doc, freq] of later) super.set(doc, freq)
    this.#codes = undefined
    this.#count = 0
    this.#deleted = undefined
    this.#changed = undefined
  }
}

import MiniSearch, { type Options } from 'minisearch'
import { hashText, hashWords } from './segments.ts'

/**
 * The keyword index as a snapshot saves it: a few typed arrays and two JSON strings, which
 * IndexedDB clones as blocks, where MiniSearch's `toJSON` form is an object per term and per
 * posting list that the structured clone and `loadJS` walk key by key (issue 25: 217 of a 10k
 * cold start's 480 CPU ms). Loading it builds the term tree and the document maps; each term's
 * postings stay encoded until a search, a write or a vacuum first touches the term.
 */
export interface KeywordImage {
  format: typeof KEYWORD_IMAGE_FORMAT
  documentCount: number
  nextId: number
  dirtCount: number
  fieldIds: Record<string, number>
  averageFieldLength: number[]
  /** JSON array of the document ids, in MiniSearch's short-id order. */
  ids: string
  /** Short id of each document in `ids`. */
  shortIds: Uint32Array
  /** Per document, its length in each field (`fields` numbers a document). */
  fieldLengths: Uint32Array
  fields: number
  /** JSON array of the index terms. */
  terms: string
  /** Where each term's postings start in `postings`; one more entry than there are terms. */
  offsets: Uint32Array
  /** Per term: its field count, then per field its id, posting count and (short id, frequency) pairs. */
  postings: Uint32Array
  /** {@link imageHash}: a truncated or stitched image no longer matches it. */
  hash: string
}

/** Bump when {@link KeywordImage}'s layout changes. */
export const KEYWORD_IMAGE_FORMAT = 1

/** The parts of MiniSearch 7 an image is read from and written into (the version is pinned). */
interface Internals {
  _documentCount: number
  _nextId: number
  _dirtCount: number
  _fieldIds: Record<string, number>
  _avgFieldLength: number[]
  _documentIds: Map<number, unknown>
  _idToShortId: Map<unknown, number>
  _fieldLength: Map<number, number[]>
  _index: {
    set(term: string, data: Map<number, Map<number, number>>): unknown
    [Symbol.iterator](): IterableIterator<[string, Map<number, Map<number, number>>]>
  }
}

/**
 * One term's postings, field id → short id → frequency, decoded from the image the first time
 * anything asks: a Map to MiniSearch, which reads and changes it through Map's methods only.
 */
class TermPostings extends Map<number, Map<number, number>> {
  #codes: Uint32Array | undefined
  #at = 0

  static of(codes: Uint32Array, at: number): TermPostings {
    const postings = new TermPostings()
    postings.#codes = codes
    postings.#at = at
    return postings
  }

  /** The encoded postings and where they start, while no one has touched them. */
  get encoded(): { codes: Uint32Array; at: number } | undefined {
    return this.#codes ? { codes: this.#codes, at: this.#at } : undefined
  }

  #fill(): void {
    const codes = this.#codes
    if (!codes) return
    this.#codes = undefined
    let at = this.#at
    const fields = codes[at++] as number
    for (let f = 0; f < fields; f++) {
      const field = codes[at++] as number
      const count = codes[at++] as number
      const docs = new Map<number, number>()
      for (let i = 0; i < count; i++, at += 2)
        docs.set(codes[at] as number, codes[at + 1] as number)
      super.set(field, docs)
    }
  }

  override get size(): number {
    this.#fill()
    return super.size
  }
  override get(key: number): Map<number, number> | undefined {
    this.#fill()
    return super.get(key)
  }
  override has(key: number): boolean {
    this.#fill()
    return super.has(key)
  }
  override set(key: number, value: Map<number, number>): this {
    this.#fill()
    return super.set(key, value)
  }
  override delete(key: number): boolean {
    this.#fill()
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
    this.#fill()
    super.forEach(fn, self)
  }
  override keys(): MapIterator<number> {
    this.#fill()
    return super.keys()
  }
  override values(): MapIterator<Map<number, number>> {
    this.#fill()
    return super.values()
  }
  override entries(): MapIterator<[number, Map<number, number>]> {
    this.#fill()
    return super.entries()
  }
  override [Symbol.iterator](): MapIterator<[number, Map<number, number>]> {
    return this.entries()
  }
}

/** A Uint32Array that grows by doubling, for encoding postings without a number[] detour. */
class Words {
  array = new Uint32Array(1024)
  length = 0
  push(word: number): void {
    if (this.length === this.array.length) {
      const next = new Uint32Array(this.array.length * 2)
      next.set(this.array)
      this.array = next
    }
    this.array[this.length++] = word
  }
  copy(from: Uint32Array, start: number, end: number): void {
    while (this.length + (end - start) > this.array.length) {
      const next = new Uint32Array(this.array.length * 2)
      next.set(this.array.subarray(0, this.length))
      this.array = next
    }
    this.array.set(from.subarray(start, end), this.length)
    this.length += end - start
  }
}

/** The image of a MiniSearch index; terms still encoded are copied as they are, not decoded. */
export function toKeywordImage(search: MiniSearch<never>): KeywordImage {
  const inner = search as unknown as Internals
  const fields = inner._avgFieldLength.length
  const ids: unknown[] = []
  const shortIds = new Uint32Array(inner._documentIds.size)
  const fieldLengths = new Uint32Array(inner._documentIds.size * fields)
  for (const [shortId, id] of inner._documentIds) {
    const lengths = inner._fieldLength.get(shortId)
    for (let f = 0; f < fields; f++) fieldLengths[ids.length * fields + f] = lengths?.[f] ?? 0
    shortIds[ids.length] = shortId
    ids.push(id)
  }
  const terms: string[] = []
  const offsets = new Words()
  const postings = new Words()
  for (const [term, data] of inner._index) {
    const encoded = data instanceof TermPostings ? data.encoded : undefined
    offsets.push(postings.length)
    terms.push(term)
    if (encoded) {
      postings.copy(encoded.codes, encoded.at, endOf(encoded.codes, encoded.at))
      continue
    }
    postings.push(data.size)
    for (const [field, docs] of data) {
      postings.push(field)
      postings.push(docs.size)
      for (const [doc, freq] of docs) {
        postings.push(doc)
        postings.push(freq)
      }
    }
  }
  offsets.push(postings.length)
  const image: Omit<KeywordImage, 'hash'> = {
    format: KEYWORD_IMAGE_FORMAT,
    documentCount: inner._documentCount,
    nextId: inner._nextId,
    dirtCount: inner._dirtCount,
    fieldIds: inner._fieldIds,
    averageFieldLength: inner._avgFieldLength,
    ids: JSON.stringify(ids),
    shortIds,
    fieldLengths,
    fields,
    terms: JSON.stringify(terms),
    offsets: offsets.array.slice(0, offsets.length),
    postings: postings.array.slice(0, postings.length),
  }
  return { ...image, hash: imageHash(image) }
}

/** Where a term's encoded postings starting at `at` end. */
function endOf(codes: Uint32Array, at: number): number {
  const fields = codes[at++] as number
  for (let f = 0; f < fields; f++) at += 2 + 2 * (codes[at + 1] as number)
  return at
}

/**
 * A MiniSearch index with `options` from an image, its terms' postings left encoded. Throws
 * when the image is not whole (its hash, its lengths): the caller rebuilds from the tables.
 */
export function fromKeywordImage<T>(image: KeywordImage, options: Options<T>): MiniSearch<T> {
  if (image.format !== KEYWORD_IMAGE_FORMAT) throw new Error('keyword image format')
  if (image.hash !== imageHash(image)) throw new Error('keyword image hash')
  const ids = JSON.parse(image.ids) as unknown[]
  const terms = JSON.parse(image.terms) as string[]
  const { fields, shortIds, fieldLengths, offsets, postings } = image
  const whole =
    Array.isArray(ids) &&
    Array.isArray(terms) &&
    ids.length === image.documentCount &&
    shortIds.length === ids.length &&
    fieldLengths.length === ids.length * fields &&
    offsets.length === terms.length + 1 &&
    offsets[terms.length] === postings.length
  if (!whole) throw new Error('keyword image lengths')
  const search = MiniSearch.loadJS<T>(
    {
      documentCount: image.documentCount,
      nextId: image.nextId,
      documentIds: {},
      fieldIds: image.fieldIds,
      fieldLength: {},
      averageFieldLength: image.averageFieldLength,
      storedFields: {},
      dirtCount: image.dirtCount,
      index: [],
      serializationVersion: 2,
    },
    options,
  )
  const inner = search as unknown as Internals
  for (let i = 0; i < ids.length; i++) {
    const shortId = shortIds[i] as number
    inner._documentIds.set(shortId, ids[i])
    inner._idToShortId.set(ids[i], shortId)
    const lengths = new Array<number>(fields)
    for (let f = 0; f < fields; f++) lengths[f] = fieldLengths[i * fields + f] as number
    inner._fieldLength.set(shortId, lengths)
  }
  for (let t = 0; t < terms.length; t++) {
    const at = offsets[t] as number
    if (endOf(postings, at) !== offsets[t + 1]) throw new Error('keyword image postings')
    inner._index.set(terms[t] as string, TermPostings.of(postings, at))
  }
  return search
}

/** A hash of every part of an image, so a damaged one is refused before anything reads it. */
export function imageHash(image: Omit<KeywordImage, 'hash'>): string {
  const head = JSON.stringify([
    image.format,
    image.documentCount,
    image.nextId,
    image.dirtCount,
    image.fieldIds,
    image.averageFieldLength,
    image.fields,
  ])
  return [
    hashText(head),
    hashText(image.ids),
    hashText(image.terms),
    hashWords(image.shortIds),
    hashWords(image.fieldLengths),
    hashWords(image.offsets),
    hashWords(image.postings),
  ].join('')
}

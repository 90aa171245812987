import MiniSearch, { type Options } from 'minisearch'
import { encodeTerm, endOf, TermPostings, Words, wordsOf } from './postings.ts'
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
  const { terms, offsets, postings } = encodeTerms(inner)
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
    offsets,
    postings,
  }
  return { ...image, hash: imageHash(image) }
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

/**
 * Encodes every term's postings into one new array and points each term at its part: what the
 * index has taken in since (or since it loaded) stops costing a `Map` a term and a field. Search
 * answers are unchanged (each posting list keeps its order). O(postings), a copy of each.
 */
export function compactPostings(search: MiniSearch<never>): void {
  const inner = search as unknown as Internals
  const { terms, data, offsets, postings } = encodeTerms(inner)
  for (let t = 0; t < terms.length; t++) {
    const held = data[t]!
    if (held instanceof TermPostings) held.rebase(postings, offsets[t]!)
    else inner._index.set(terms[t]!, TermPostings.of(postings, offsets[t]!))
  }
}

/**
 * Every term of the index, its postings as held and all of them encoded into one array (term
 * `t`'s from `offsets[t]` to `offsets[t + 1]`). Sized by a first pass, so encoding holds one
 * copy of the postings beside what it reads, not the three a doubling array would leave.
 */
function encodeTerms(inner: Internals) {
  const terms: string[] = []
  const data: Map<number, Map<number, number>>[] = []
  let total = 0
  for (const [term, postingsOfTerm] of inner._index) {
    terms.push(term)
    data.push(postingsOfTerm)
    total += wordsOf(postingsOfTerm)
  }
  const offsets = new Words(terms.length + 1)
  const postings = new Words(total)
  for (const postingsOfTerm of data) {
    offsets.push(postings.length)
    encodeTerm(postingsOfTerm, postings)
  }
  offsets.push(postings.length)
  return { terms, data, offsets: offsets.done(), postings: postings.done() }
}

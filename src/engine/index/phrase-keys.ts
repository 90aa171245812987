import { containsPhrases, hasUnspacedScript, phraseKey, phraseWords } from '../../core/query.ts'
import { hasStripped } from '../../core/text.ts'
import type { Memory } from '../../core/types.ts'
import type { KeywordIndex } from './keyword-index.ts'

/**
 * Printable ASCII words with single spaces between them: a text whose {@link phraseKey} is its
 * lower case (nothing for NFC, the invisible separators, the apostrophes or the spacing to do).
 */
const PLAIN = /^[!-~]+(?: [!-~]+)*$/

/**
 * The {@link phraseKey} of a text, as a flat string: the key comes out of a global `replace` as
 * a rope of one piece per match, which V8 keeps as it is (700 B for a 51-character text at
 * 100k memories; 8 MB flat against 67 MB); `Number` reads the string, which flattens it.
 */
function flatPhraseKey(text: string): string {
  const key = phraseKey(text)
  Number(key)
  return key
}

/** How many texts' keys {@link PhraseKeys.matches} keeps once made. */
const KEPT_KEYS = 4096

const ASCII_RUN = /[a-z0-9]+/g

/** The longest run of ASCII letters and digits of each phrase (`''` for a phrase with none). */
function longestRuns(phrases: readonly string[]): string[] {
  return phrases.map((phrase) => {
    let longest = ''
    for (const [run] of phrase.matchAll(ASCII_RUN)) if (run.length > longest.length) longest = run
    return longest
  })
}

/**
 * What quoted phrases are matched against: each text's {@link phraseKey}, made for the texts a
 * quoted query reaches (a few thousand kept), and the memories whose text has an unspaced script
 * (where a phrase's words need not be tokens). Kept by `IndexSet` as memories are put and removed.
 *
 * A key is a copy of its text (15 µs for 500 characters of chat), so none is made as a memory is
 * put: every imported chunk's key was an eighth of the worker's heap. A quoted query reads only
 * the candidates of its rarest word (see {@link PhraseKeys.candidates}), and a candidate whose
 * lower case lacks a phrase's longest ASCII word cannot match (0.4 µs to tell), so keys are made
 * for the likely matches alone.
 */
export class PhraseKeys {
  /** Keys made by {@link PhraseKeys.matches}, by id; emptied when full, like the terms cache. */
  readonly #keys = new Map<string, string>()
  readonly #unspaced = new Set<string>()
  #unscanned: (() => Iterable<Pick<Memory, 'id' | 'text'>>) | undefined
  /** The phrases last matched and their longest ASCII runs: one query asks for many texts. */
  #phrases: readonly string[] | undefined
  #runs: string[] = []

  put(memory: Pick<Memory, 'id' | 'text'>): void {
    this.#keys.delete(memory.id)
    this.#markUnspaced(memory)
  }

  /**
   * For a catalogue adopted whole (a snapshot's): its unspaced marks are made at the first
   * quoted query, from `memories()` as they are by then.
   */
  adoptLater(memories: () => Iterable<Pick<Memory, 'id' | 'text'>>): void {
    this.clear()
    this.#unscanned = memories
  }

  delete(id: string): void {
    this.#keys.delete(id)
    this.#unspaced.delete(id)
  }

  clear(): void {
    this.#keys.clear()
    this.#unspaced.clear()
    this.#unscanned = undefined
  }

  /** Whether the memory's text holds every phrase. */
  matches(memory: Pick<Memory, 'id' | 'text'>, phrases: readonly string[]): boolean {
    let key = this.#keys.get(memory.id)
    if (key === undefined) {
      const text = memory.text
      if (PLAIN.test(text)) return containsPhrases(text.toLowerCase(), phrases)
      // Without a character normalizeText deletes (which can join two words), a text's lower
      // case holds every run of ASCII letters and digits its key holds.
      if (!hasStripped(text)) {
        if (this.#phrases !== phrases) {
          this.#phrases = phrases
          this.#runs = longestRuns(phrases)
        }
        const lower = text.toLowerCase()
        for (const run of this.#runs) if (!lower.includes(run)) return false
      }
      key = flatPhraseKey(text)
      if (this.#keys.size >= KEPT_KEYS) this.#keys.clear()
      this.#keys.set(memory.id, key)
    }
    return containsPhrases(key, phrases)
  }

  /**
   * Ids among which every memory holding all `phrases` is found, or undefined when the phrases
   * have no word to look up (all stop words or punctuation) and every memory is a candidate.
   * The candidates are the posting list of the rarest term of the phrases' {@link phraseWords},
   * then the memories with an unspaced script; a candidate may still lack the phrases.
   */
  candidates(phrases: readonly string[], keyword: KeywordIndex): Iterable<string> | undefined {
    let best: string[] | undefined
    const tried = new Set<string>()
    for (const phrase of phrases) {
      for (const word of phraseWords(phrase)) {
        const term = keyword.processTerm(word)
        if (term === null || tried.has(term)) continue
        tried.add(term)
        const ids = keyword.idsWithTerm(term)
        if (!best || ids.length < best.length) best = ids
        if (best.length === 0) break
      }
    }
    if (!best) return undefined
    if (this.#unscanned) {
      for (const memory of this.#unscanned()) this.#markUnspaced(memory)
      this.#unscanned = undefined
    }
    if (this.#unspaced.size === 0) return best
    const ids = new Set(best)
    for (const id of this.#unspaced) ids.add(id)
    return ids
  }

  #markUnspaced(memory: Pick<Memory, 'id' | 'text'>): void {
    if (hasUnspacedScript(memory.text)) this.#unspaced.add(memory.id)
    else this.#unspaced.delete(memory.id)
  }
}

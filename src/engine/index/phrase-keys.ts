import { containsPhrases, hasUnspacedScript, phraseKey, phraseWords } from '../../core/query.ts'
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

/**
 * What quoted phrases are matched against: the {@link phraseKey} of each memory's text, and the
 * memories whose text has an unspaced script (where a phrase's words need not be tokens). Kept
 * by `IndexSet` as memories are put and removed.
 */
export class PhraseKeys {
  /**
   * The keys of the texts that are not {@link PLAIN} (those match on their lower case, made at
   * match time for a tenth of the cost of the key), made as a memory is put (a few µs each) so
   * the first quoted query does not normalise every text of the store in its answer (0.8 s at
   * 100k, issue 11); a catalogue adopted whole fills it as quoted queries need it.
   */
  readonly #keys = new Map<string, string>()
  readonly #unspaced = new Set<string>()
  #unscanned: (() => Iterable<Pick<Memory, 'id' | 'text'>>) | undefined

  put(memory: Pick<Memory, 'id' | 'text'>): void {
    if (PLAIN.test(memory.text)) this.#keys.delete(memory.id)
    else this.#keys.set(memory.id, flatPhraseKey(memory.text))
    this.#markUnspaced(memory)
  }

  /**
   * For a catalogue adopted whole (a snapshot's): its keys are made as quoted queries need them
   * and its unspaced marks at the first quoted query, from `memories()` as they are by then.
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
      if (PLAIN.test(memory.text)) return containsPhrases(memory.text.toLowerCase(), phrases)
      key = flatPhraseKey(memory.text)
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

/**
 * The text guard of near-duplicate detection (issue 13 §5). A real encoder puts "Bye Nate!" and
 * "Bye Joanna!" — or "The payments service listens on port 7443" and "…on port 8443" — above
 * any cosine threshold that still merges true rewordings, because the words that tell two facts
 * apart are the few the model weighs least: names, numbers, identifiers. So near dedup merges
 * only when the cosine clears the model's threshold *and* both texts name the same things in the
 * same order.
 */

import { STOP_WORDS } from './stop-words.ts'

// A word: letters or digits, with inner apostrophes, dots, slashes, underscores, hyphens,
// hashes or colons (paths, identifiers, versions, times). A leading '#' or '@' belongs to it.
const WORD = /[#@]?[\p{L}\p{N}](?:[\p{L}\p{N}'’._/\\:#-]*[\p{L}\p{N}])?/gu
const CAPITAL = /^\p{Lu}/u
const DIGIT = /\p{N}/u
const INNER_MARK = /[._/\\:#@]|\p{Ll}\p{Lu}/u
// "Caroline: …", "Dr Okafor: …": who is speaking, as chat transcripts and notes label it.
const SPEAKER = /^\s*(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2}):\s/u

/**
 * The tokens of `text` that name something, in order, lower-cased, possessive `'s` dropped:
 * anything with a digit, identifiers (an inner `.`, `/`, `_`, `:`, `#`, or camelCase) and
 * capitalised words, stop words aside (`I`, `My`, `The` are capitalised for grammar).
 *
 * @example
 * namedTokens('Nate: Bye Joanna!')                         // => ['nate', 'bye', 'joanna']
 * namedTokens("My brother is Tom; Hannah's is Felix")      // => ['tom', 'hannah', 'felix']
 * namedTokens('The payments service listens on port 7443') // => ['7443']
 */
export function namedTokens(text: string): string[] {
  return analyse(text).named
}

function analyse(text: string): { named: string[]; words: Set<string> } {
  const named: string[] = []
  const words = new Set<string>()
  for (const match of text.normalize('NFC').matchAll(WORD)) {
    const word = match[0].replace(/['’]s$/u, '')
    const token = word.toLowerCase()
    words.add(token)
    const names =
      DIGIT.test(word) ||
      INNER_MARK.test(word) ||
      (CAPITAL.test(word) && !STOP_WORDS.has(token.replace(/['’]/gu, '')))
    if (names) named.push(token)
  }
  return { named, words }
}

/** The leading speaker label of `text` ("Nate: Bye Joanna!" → "nate"), or undefined. */
export function speakerOf(text: string): string | undefined {
  return SPEAKER.exec(text.normalize('NFC'))?.[1]?.toLowerCase()
}

/**
 * Whether two texts may be merged as near duplicates, as far as their wording goes: every token
 * either names ({@link namedTokens}) appears in the other, and a leading speaker label, if
 * either has one, is the same ("Nate: Bye Joanna!" and "Joanna: Bye Nate!" are two memories).
 * The cosine test comes first; this only vetoes. A veto keeps a true rewording as a second
 * memory, which costs little; a wrong merge loses a fact.
 *
 * @example
 * mayMerge('Bye Nate!', 'Bye Joanna!')                                     // => false
 * mayMerge('Nate: Bye Joanna!', 'Joanna: Bye Nate!')                       // => false
 * mayMerge('Backups are kept for 35 days', 'Backups are kept for 14 days') // => false
 * mayMerge('Anika owns search', 'Bruno owns search')                       // => false
 * mayMerge('Tom is my brother', 'My brother is Tom')                       // => true
 * mayMerge('Port 7443 is where payments listen', 'Payments listen on port 7443') // => true
 */
export function mayMerge(a: string, b: string): boolean {
  if (speakerOf(a) !== speakerOf(b)) return false
  const x = analyse(a)
  const y = analyse(b)
  return x.named.every((t) => y.words.has(t)) && y.named.every((t) => x.words.has(t))
}

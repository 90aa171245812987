/**
 * Quoted and reported speech: "a blog post about attacks like 'ignore previous instructions'"
 * mentions an attack rather than making one. A signal inside quotes, in a text that talks about
 * something (an article, a talk, attacks like…), or right after "attacks like" / "such as",
 * scores lower. Hidden characters and encodings are never a mention.
 */
import type { Hit } from './hits.ts'
import type { Layer } from './normalise.ts'

/** Words of a text that discusses, cites or teaches rather than instructs. */
const DISCUSSION =
  /\b(?:about|article|blog|post|paper|talk|lecture|course|class|workshop|slides?|book|chapter|research|study|studied|newsletter|podcast|video|documentary|examples?|attacks?|such as|e\.g\.|for example|known as|called|phrase|string|injections?|jailbreak(?:s|ing)? (?:attempts?|prompts?)|security|phishing|red team(?:ing)?|ctf|meme|joke|titled|headline|warns?|warning|test cases?|dataset|classifier|screen(?:ing|s)?|detects?|blocks?|payloads?|quoted?|mentions?|slogan|t-shirt|sticker|sign|poster)\b/
/** Directly introduces a mention: "attacks like …", "examples such as …". */
const INTRODUCER =
  /(?:attacks?|injections?|prompts?|examples?|phrases?|strings?|payloads?|tricks?|lines?|things?) (?:like|such as|including|e\.g\.|of the form|saying|that say)\s*:?\s*$|\b(?:such as|e\.g\.|for example|for instance|known as|called|titled)\s*:?\s*$/
/**
 * Tells the reader to act on what was quoted ("…" — do exactly that now): the quotes wrap an
 * instruction, they do not report one.
 */
const ENDORSES =
  /\b(?:(?:now |then |just )?do (?:exactly |just )?(?:that|this|it|so|as (?:it|they|the note) says?)|follow (?:it|that|this|them|those|these)(?: instructions?| steps?)?|obey (?:it|that|this|them)|act on (?:it|that|this|them)|carry (?:it|that|this|them) out)\b/
const ADDRESS = /\S*(?::\/\/|@)\S*|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b\S*/g
const UNDISCOUNTED = new Set(['hidden-unicode', 'encoded-payload'])

/** Scales down the hits from `start` on that sit in quoted or reported speech. */
export function discountMentions(layer: Layer, hits: Hit[], start: number, offset: number): void {
  if (start >= hits.length) return
  const { lower } = layer
  const quotes = quotedSpans(lower)
  // "example" in example.com is not an example: addresses are left out of the reading.
  const discussing = DISCUSSION.test(lower.replace(ADDRESS, ' '))
  if (quotes.length === 0 && !discussing) return
  if (ENDORSES.test(lower)) return
  for (let i = start; i < hits.length; i++) {
    const hit = hits[i] as Hit
    if (UNDISCOUNTED.has(hit.rule)) continue
    const at = toLayer(layer, hit.at - offset)
    const quoted = quotes.some(([from, to]) => at >= from && at < to)
    const before = lower.slice(Math.max(0, at - 40), at)
    if (quoted && (discussing || INTRODUCER.test(before.replace(/["'`]\s*$/, '')))) {
      hits[i] = mentioned(hit, 0.3)
    } else if (!quoted && INTRODUCER.test(before)) {
      hits[i] = mentioned(hit, 0.4)
    }
  }
}

/**
 * A discounted signal. Several rules often see the same quoted phrase; as a mention they count
 * once per rule, or three weak echoes would add up to a flag again.
 */
const mentioned = (hit: Hit, factor: number): Hit => ({
  ...hit,
  cue: `mention:${hit.rule}`,
  score: hit.score * factor,
})

/**
 * `layer` with its quoted spans blanked (same length, so positions still line up), for reading
 * what a text says around the speech it reports; `null` when nothing is quoted.
 */
export function unquoted(layer: Layer): Layer | null {
  const spans = quotedSpans(layer.lower)
  if (spans.length === 0) return null
  const blank = (text: string) => {
    let out = ''
    let last = 0
    for (const [from, to] of [...spans].sort((a, b) => a[0] - b[0])) {
      if (from < last) continue
      out += text.slice(last, from) + ' '.repeat(to - from)
      last = to
    }
    return out + text.slice(last)
  }
  return { ...layer, lower: blank(layer.lower), norm: blank(layer.norm) }
}

/** The layer index of a source index (the first character that came from it). */
function toLayer(layer: Layer, sourceIndex: number): number {
  if (!layer.origin) return sourceIndex
  const { origin } = layer
  let lo = 0
  let hi = origin.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((origin[mid] ?? 0) < sourceIndex) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** `"…"` and `'…'` (not apostrophes) spans, as [start, end) of their contents. */
function quotedSpans(lower: string): [number, number][] {
  const spans: [number, number][] = []
  // Backticks mark code, where commands live: not reported speech.
  for (const quote of ['"', "'"]) {
    let from = -1
    for (let i = lower.indexOf(quote); i >= 0; i = lower.indexOf(quote, i + 1)) {
      if (quote === "'" && !isQuoteMark(lower, i, from < 0)) continue
      if (from < 0) from = i + 1
      else {
        spans.push([from, i])
        from = -1
      }
    }
  }
  return spans
}

/** A single quote opens after a space or bracket and closes before one; else it is an apostrophe. */
function isQuoteMark(text: string, i: number, opening: boolean): boolean {
  const outside = opening ? text[i - 1] : text[i + 1]
  return outside === undefined || /[\s([{:,.;!?)\]}]/.test(outside)
}

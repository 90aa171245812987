/**
 * Hidden Unicode: tag characters, bidi controls, zero-width runs and variation-selector runs.
 * Flags what is hidden, hands what the invisible characters spell to the caller to screen, and
 * returns the text a reader sees.
 */
import { clip, type Hits } from './hits.ts'
import { CERTAIN } from './rules.ts'

const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible code point is matched on its own, combining or not
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f\udd00-\uddef]/
const ZERO_WIDTH = new Set([
  0x00ad, 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061,
  0x2062, 0x2063, 0x2064, 0x3164, 0xfeff, 0xffa0,
])
/** Zero-width characters with no business inside Latin words (ZWJ/ZWNJ and soft hyphen have one). */
const ZERO_WIDTH_SPLITTER = new Set([
  0x200b, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x180e,
])

const hexCode = (cp: number) => 'U+' + cp.toString(16).toUpperCase().padStart(4, '0')

/** Called with text that invisible characters spelled, and what carried it. */
export type OnHidden = (hidden: string, carrier: string) => void

/** The visible text; what is hidden is reported as `hidden-unicode` and handed to `onHidden`. */
export function revealHidden(text: string, hits: Hits, onHidden: OnHidden): string {
  if (!INVISIBLE.test(text)) return text
  const scan = new HiddenScan(text)
  for (let i = 0; i < text.length; ) i = scan.step(i)
  scan.finish()
  for (const [hidden, carrier] of scan.spelled) {
    if (!hidden.trim()) continue
    hits.add(
      'hidden-unicode',
      `carrier:${carrier}`,
      CERTAIN,
      `${carrier} spelling "${clip(hidden, 50)}"`,
    )
    onHidden(hidden, carrier)
  }
  if (scan.reason) hits.add('hidden-unicode', 'invisible', CERTAIN, scan.reason)
  return scan.out
}

/** One pass over a text: what a reader sees, what the invisible characters spell, and why. */
class HiddenScan {
  out = ''
  /** The first reason the text looks like it hides something. */
  reason = ''
  /** What each carrier spelled: each variation-selector run as it ends, then the tag characters. */
  readonly spelled: [hidden: string, carrier: string][] = []
  #tags = ''
  #selectors: number[] = []
  #zeroWidthRun = 0
  #splitters = 0

  constructor(readonly text: string) {}

  /** Reads the character at `i`; returns where the next one starts. */
  step(i: number): number {
    const cp = this.text.codePointAt(i) ?? 0
    if (isTag(cp)) return this.#tagRun(i)
    const size = cp > 0xffff ? 2 : 1
    const selector = selectorValue(cp)
    if (selector >= 0) this.#selectors.push(selector)
    else this.flushSelectors()
    if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      this.reason ||= `bidi control ${hexCode(cp)}`
    } else if ((cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0x206a && cp <= 0x206f)) {
      this.reason ||= `invisible format character ${hexCode(cp)}`
    } else if (ZERO_WIDTH.has(cp)) {
      this.#zeroWidth(cp, i)
    } else if (cp === 0x200e || cp === 0x200f || cp === 0x061c || selector >= 0) {
      // Marks and selectors: legitimate one at a time, invisible to matching either way.
    } else {
      this.#zeroWidthRun = 0
      this.out += this.text.slice(i, i + size)
    }
    return i + size
  }

  /** A run of variation selectors long enough to carry bytes is data, not an emoji style. */
  flushSelectors(): void {
    if (this.#selectors.length >= 2) {
      this.reason ||= 'variation selectors hiding data'
      this.spelled.push([utf8(this.#selectors) ?? '', 'variation selectors'])
    }
    this.#selectors = []
  }

  /** Ends the pass: the last selector run, then everything the tag characters spelled, joined. */
  finish(): void {
    this.flushSelectors()
    if (this.#tags) this.spelled.push([this.#tags, 'tag characters'])
  }

  #tagRun(i: number): number {
    const { text } = this
    let end = i
    while (end < text.length && isTag(text.codePointAt(end) ?? 0)) end += 2
    if (!isFlagTagSequence(text, i, end)) {
      for (let j = i; j < end; j += 2) {
        const c = (text.codePointAt(j) ?? 0) - 0xe0000
        if (c >= 0x20 && c < 0x7f) this.#tags += String.fromCharCode(c)
      }
      this.reason ||= 'tag characters'
    }
    this.#zeroWidthRun = 0
    return end
  }

  #zeroWidth(cp: number, i: number): void {
    if (++this.#zeroWidthRun >= 2) this.reason ||= `run of zero-width characters (${hexCode(cp)})`
    if (ZERO_WIDTH_SPLITTER.has(cp) && isLetter(this.text, i - 1) && isLetter(this.text, i + 1)) {
      if (++this.#splitters >= 2)
        this.reason ||= `zero-width characters inside words (${hexCode(cp)})`
    }
  }
}

/** A variation selector's value (VS1–VS16 → 0–15, VS17–VS256 → 16–255), else -1. */
function selectorValue(cp: number): number {
  if (cp >= 0xfe00 && cp <= 0xfe0f) return cp - 0xfe00
  if (cp >= 0xe0100 && cp <= 0xe01ef) return cp - 0xe0100 + 16
  return -1
}

const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f
const isLetter = (text: string, i: number) => /[A-Za-z]/.test(text[i] ?? '')

/** 🏴 + tag letters/digits + CANCEL TAG is how subdivision flags (Scotland, Wales) are spelled. */
function isFlagTagSequence(text: string, start: number, end: number): boolean {
  const count = (end - start) / 2
  if (text.codePointAt(start - 2) !== 0x1f3f4 || count < 3 || count > 8) return false
  if (text.codePointAt(end - 2) !== 0xe007f) return false
  for (let j = start; j < end - 2; j += 2) {
    const c = (text.codePointAt(j) ?? 0) - 0xe0000
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a))) return false
  }
  return true
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** Bytes as UTF-8 text, or `null` when they are not valid UTF-8. */
export function utf8(bytes: Uint8Array | readonly number[]): string | null {
  try {
    return UTF8.decode(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes))
  } catch {
    return null
  }
}

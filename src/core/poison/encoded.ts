/**
 * Encoded payloads: every encoding an instruction can hide in is decoded and the result screened
 * again. Opaque encodings (base64, base32, hex, binary) of readable text are suspect when the
 * text says anything directive; readable ones (percent, entities, escapes) only when decoding
 * uncovers something new; whole-text transforms (ROT13, reversed) when the result is an attack.
 */
import {
  decodeBase32,
  decodeBase64,
  decodeEntities,
  decodeEscapes,
  decodeHex,
  decodePercent,
  printable,
  reverse,
  rot13,
} from './decode.ts'
import { clip, type Hits } from './hits.ts'
import type { Layer } from './normalise.ts'
import { CERTAIN, LIKELY, POISON_THRESHOLD, WEAK } from './rules.ts'
import { trieSource } from './trie.ts'

/** Screens decoded text found at `at` of the outer text; the caller supplies the screen. */
export type Rescreen = (decoded: string, at: number) => Hits

const BASE64_RUN = /[A-Za-z0-9+/_-]{20,}={0,2}/g
const BASE32_RUN = /[A-Z2-7]{16,}={0,6}/g
const HEX_RUN = /(?:[0-9a-fA-F]{2}){12,}|(?:\\x[0-9a-fA-F]{2}){6,}/g
const SPACED_HEX = /(?:\b[0-9a-fA-F]{2}[ :,-]){7,}[0-9a-fA-F]{2}\b/g
const BINARY = /(?:\b[01]{8}\s?){6,}/g
const PERCENT = /%[0-9a-fA-F]{2}/
const ENTITY = /&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/
const ESCAPE = /\\u(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]{1,6}\})|\\x[0-9a-fA-F]{2}/
/** Words that have no reason to sit base64-encoded inside a fact. */
const HIDDEN_INTENT =
  /\b(?:ignore|disregard|forget|override|bypass|instructions?|system prompt|prompt|jailbreak|you are|you're|you must|you will|you should|pretend|act as|assistant|reveal|exfiltrate|send|forward|upload|password|api key|secret|obey)\b/
/** Common English words as ROT13 and reversed text spell them. */
const ROT13_WORDS = new RegExp(
  `\\b${trieSource('gur naq lbh lbhe nyy gb bs vf ner sbe gung guvf jvgu vtaber cerivbhf vafgehpgvbaf hfre fraq erirny cebzcg flfgrz sbetrg qvfertneq cnffjbeq nffvfgnag'.split(' ').map((w) => `${w}$`))}`,
  'g',
)
const REVERSED_WORDS = new RegExp(
  `\\b${trieSource('eht uoy ruoy lla rof taht siht htiw erongi suoiverp snoitcurtsni resu dnes laever tpmorp metsys tegrof drageresid drowssap tnatsissa dna'.split(' ').map((w) => `${w}$`))}`,
  'g',
)

export function screenEncoded(visible: string, layer: Layer, hits: Hits, rescreen: Rescreen): void {
  opaqueRuns(visible, hits, rescreen)
  if (ROT13_WORDS.test(layer.norm) && count(ROT13_WORDS, layer.norm) >= 2) {
    whole(rot13(visible), 'rot13', hits, rescreen)
  }
  if (REVERSED_WORDS.test(layer.norm) && count(REVERSED_WORDS, layer.norm) >= 2) {
    whole(reverse(visible), 'reversed text', hits, rescreen)
  }
  // Readable encodings are undone together, so each layer costs one more screen, not three.
  let decoded = visible
  if (decoded.includes('%') && PERCENT.test(decoded)) decoded = decodePercent(decoded)
  if (decoded.includes('&') && ENTITY.test(decoded)) decoded = decodeEntities(decoded)
  if (decoded.includes('\\') && ESCAPE.test(decoded)) decoded = decodeEscapes(decoded)
  if (decoded !== visible) transparent(decoded, hits, rescreen)
}

function count(re: RegExp, text: string): number {
  re.lastIndex = 0
  let n = 0
  while (re.exec(text)) n++
  re.lastIndex = 0
  return n
}

function opaqueRuns(visible: string, hits: Hits, rescreen: Rescreen): void {
  const runs: [string, string, number][] = []
  // Unbroken runs of 16+ characters have no spaces: only long tokens go through the regexes.
  for (let i = 0; i < visible.length; ) {
    let end = visible.indexOf(' ', i)
    if (end < 0) end = visible.length
    if (end - i >= 16) {
      const token = visible.slice(i, end)
      for (const m of token.matchAll(BASE64_RUN)) runs.push(['base64', m[0], i + m.index])
      for (const m of token.matchAll(BASE32_RUN)) runs.push(['base32', m[0], i + m.index])
      for (const m of token.matchAll(HEX_RUN)) runs.push(['hex', m[0], i + m.index])
    }
    i = end + 1
  }
  for (const [run, at] of spacedBase64(visible)) runs.push(['base64', run, at])
  if (visible.includes(':') || visible.includes(' ')) {
    for (const m of visible.matchAll(SPACED_HEX)) runs.push(['hex', m[0], m.index])
  }
  if (visible.includes('0') && visible.includes('1')) {
    for (const m of visible.matchAll(BINARY)) runs.push(['binary', m[0], m.index])
  }
  for (const [how, run, at] of runs) {
    if (hits.has('encoded-payload', LIKELY)) return
    opaque(bytesOf(how, run), how, at, hits, rescreen)
  }
}

function bytesOf(how: string, run: string): Uint8Array | null {
  if (how === 'base64') return decodeBase64(run)
  if (how === 'base32') return decodeBase32(run)
  if (how === 'binary') {
    const bits = run.replace(/\s/g, '')
    return Uint8Array.from({ length: bits.length >> 3 }, (_, i) =>
      Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2),
    )
  }
  return decodeHex(run.replace(/\\x|[ :,-]/g, ''))
}

const B64_TOKEN = /^[A-Za-z0-9+/]{2,}={0,2}$/
/** A token that looks encoded rather than written: case flips or digits inside letters. */
const B64_ISH = /[a-z][A-Z].*[A-Za-z]|[A-Z]{2}[a-z]|[A-Za-z]\d[A-Za-z]|\d[A-Za-z]{2}/

/** Base64 broken by spaces or line breaks (`SWdub3Jl IGFsbCBw…`), joined back into one run. */
/** Two encoded-looking tokens side by side: the only texts worth tokenising for spaced base64. */
const SPACED_GATE =
  /(?:^|\s)[A-Za-z0-9+/]*(?:[a-z][A-Z]|\d[A-Za-z]|[A-Za-z]\d)[A-Za-z0-9+/]*={0,2}\s+[A-Za-z0-9+/]*(?:[a-z][A-Z]|\d[A-Za-z]|[A-Za-z]\d)/

function spacedBase64(visible: string): [string, number][] {
  if (!SPACED_GATE.test(visible)) return []
  const out: [string, number][] = []
  const tokens = [...visible.matchAll(/\S+/g)]
  for (let i = 0; i < tokens.length; ) {
    const first = tokens[i] as RegExpExecArray
    if (!B64_TOKEN.test(first[0]) || !B64_ISH.test(first[0])) {
      i++
      continue
    }
    let j = i
    let joined = ''
    while (j < tokens.length && B64_TOKEN.test((tokens[j] as RegExpExecArray)[0])) {
      joined += (tokens[j] as RegExpExecArray)[0]
      j++
      if (joined.endsWith('=')) break
    }
    if (j - i >= 2 && joined.length >= 20) out.push([joined, first.index])
    i = j
  }
  return out
}

/** An opaque encoding of readable text is suspect if it says anything directive. */
function opaque(
  bytes: Uint8Array | null,
  how: string,
  at: number,
  hits: Hits,
  rescreen: Rescreen,
): void {
  const decoded = bytes && bytes.length >= 12 ? printable(bytes) : null
  if (!decoded) return
  const inner = rescreen(decoded, at)
  const score = inner.score()
  if (score < POISON_THRESHOLD && !HIDDEN_INTENT.test(decoded.toLowerCase())) return
  const strength = score >= POISON_THRESHOLD ? CERTAIN : LIKELY
  hits.add('encoded-payload', `opaque:${how}`, strength, `${how} of "${clip(decoded, 60)}"`, at)
  hits.list.push(...inner.list)
}

/** ROT13 or reversed text counts when the decoded text is itself an attack. */
function whole(decoded: string, how: string, hits: Hits, rescreen: Rescreen): void {
  const inner = rescreen(decoded, 0)
  if (inner.score() < POISON_THRESHOLD) return
  hits.add('encoded-payload', `whole:${how}`, CERTAIN, `${how} of "${clip(decoded, 60)}"`)
  hits.list.push(...inner.list)
}

/** A readable encoding (percent, entities) is suspect only if decoding uncovers a new signal. */
function transparent(decoded: string, hits: Hits, rescreen: Rescreen): void {
  const inner = rescreen(decoded, 0)
  const known = new Set(hits.list.map((hit) => hit.cue))
  const fresh = inner.list.filter((hit) => !known.has(hit.cue) && hit.score >= WEAK)
  if (fresh.length === 0) return
  hits.list.push(...fresh)
  if (inner.score() >= POISON_THRESHOLD) {
    hits.add('encoded-payload', 'readable', CERTAIN, `decodes to "${clip(decoded, 64)}"`)
  }
}

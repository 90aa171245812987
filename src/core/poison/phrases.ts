/**
 * The English phrase rules, gated: every pattern names the anchor words it cannot match without,
 * and one pass of a keyword regex over the text decides which patterns run at all. Most facts
 * start none or one of them.
 */
import { density } from './density.ts'
import { type Hits, hitAt } from './hits.ts'
import type { Layer } from './normalise.ts'
import type { Pattern } from './phrase-words.ts'
import { BEACON, BEACON_PARAM_ONLY, EXFILTRATION_PATTERNS } from './phrases-exfiltration.ts'
import { OVERRIDE_PATTERNS } from './phrases-override.ts'
import { DAN, ROLE_PATTERNS, TEMPLATE } from './phrases-role.ts'
import { CERTAIN, type PoisonRule } from './rules.ts'

const PATTERNS: readonly Pattern[] = [
  ...OVERRIDE_PATTERNS,
  ...ROLE_PATTERNS,
  ...EXFILTRATION_PATTERNS,
]

// Each pattern (and density) is one bit of a 31-bit mask.
if (PATTERNS.length > 30) {
  throw new Error(`poison screen: ${PATTERNS.length} patterns exceed the 30-bit anchor mask`)
}

/** Density is scored by one more pass; these are the words its strong and AI-aimed markers need. */
const DENSITY_ANCHORS =
  'user, human, owner, operator, anyone, them, reveal, disclose, secret, covertly, hidden, confidential, circumstances, costs, priority, overrid, supersed, precedence, assistant, ai$, model, agent, chatbot, bot, llm, language model, respons, respond, answer, repl, output, message, conversation, someone, somebody, ask'
const DENSITY_BIT = 1 << PATTERNS.length
/** Re-readings (leetspeak, squeezed words) break addresses: they run the other patterns only. */
const REREAD_BITS = PATTERNS.reduce(
  (bits, pattern, i) => (pattern.rule === 'exfiltration' ? bits : bits | (1 << i)),
  0,
)

/** Keyword → bit mask of the patterns (and density) it can start. */
const ANCHOR_BITS = new Map<string, number>()
const WHOLE_WORDS = new Set<string>()
function anchor(list: string, bit: number): void {
  for (const raw of list.split(', ')) {
    const word = raw.endsWith('$') ? raw.slice(0, -1) : raw
    if (word !== raw) WHOLE_WORDS.add(word)
    ANCHOR_BITS.set(word, (ANCHOR_BITS.get(word) ?? 0) | bit)
  }
}
for (const [i, pattern] of PATTERNS.entries()) anchor(pattern.anchors, 1 << i)
anchor(DENSITY_ANCHORS, DENSITY_BIT)
// The alternation reports only the longest keyword at a position; it stands for its prefixes.
for (const [word, bits] of ANCHOR_BITS) {
  let union = bits
  for (const [other, more] of ANCHOR_BITS) {
    if (word.startsWith(other) && !WHOLE_WORDS.has(other)) union |= more
  }
  ANCHOR_BITS.set(word, union)
}
const ANCHORS = new RegExp(
  String.raw`\b(?:${[...ANCHOR_BITS.keys()]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.]/g, '\\.') + (WHOLE_WORDS.has(word) ? String.raw`\b` : ''))
    .join('|')})`,
  'g',
)

/** Which patterns can match: one pass over the anchor words. */
function anchored(norm: string): number {
  let bits = 0
  ANCHORS.lastIndex = 0
  for (let m = ANCHORS.exec(norm); m; m = ANCHORS.exec(norm)) bits |= ANCHOR_BITS.get(m[0]) ?? 0
  return bits
}

/**
 * Runs the phrase rules on one reading. `reread` is a leetspeak or squeezed reading, where only
 * the override and role patterns apply.
 */
export function matchPhrases(layer: Layer, hits: Hits, reread = false): void {
  let bits = anchored(layer.norm)
  if (reread) bits &= REREAD_BITS
  if (bits) runPatterns(bits, layer, hits)
  if (reread) return
  const { lower, source } = layer
  if (source.includes('DAN')) {
    const dan = DAN.exec(source)
    if (dan) hits.add('instruction-override', 'dan', CERTAIN, dan[0], dan.index)
  }
  if (lower.includes('<') || lower.includes('[') || lower.includes('##')) {
    firstOf(TEMPLATE, layer, 'role-reassignment', 'template', hits)
  }
  if (lower.includes('![') || lower.includes('<img')) {
    firstOf(BEACON, layer, 'exfiltration', 'beacon', hits)
    firstOf(BEACON_PARAM_ONLY, layer, 'exfiltration', 'beacon:param', hits, 0.45)
  }
  if (bits & DENSITY_BIT) density(layer, hits)
}

function runPatterns(bits: number, layer: Layer, hits: Hits): void {
  for (let i = 0; i < PATTERNS.length; i++) {
    const pattern = PATTERNS[i] as Pattern
    if (!(bits & (1 << i))) continue
    if (pattern.needs !== undefined && !layer.norm.includes(pattern.needs)) continue
    const m = pattern.re.exec(layer.norm)
    if (m) hitAt(hits, layer, pattern.rule, `phrase:${i}`, CERTAIN, m.index, m[0].length)
  }
}

function firstOf(
  patterns: readonly RegExp[],
  layer: Layer,
  rule: PoisonRule,
  cue: string,
  hits: Hits,
  score = CERTAIN,
): void {
  for (const pattern of patterns) {
    const m = pattern.exec(layer.lower)
    if (m) {
      hitAt(hits, layer, rule, cue, score, m.index, m[0].length)
      return
    }
  }
}

/**
 * The multilingual lexicon: attack concepts found close together in one clause. "Ignore" near
 * "instructions" near "previous" is an override in any of the lexicon's languages and however
 * it is worded ("pay no attention to the earlier directions", "忽略之前的所有指示"); "reveal" near
 * "system prompt" is extraction; "send" near the user's data near an address is exfiltration.
 * Verb-final languages (ja, ko, hi) put the verb last, so order only counts in English.
 */
import { TARGET } from './cue.ts'
import { type Hits, hitAt } from './hits.ts'
import { type Concept, TERMS } from './lexicon-terms.ts'
import { fold, type Layer } from './normalise.ts'
import { CERTAIN, type PoisonRule, SUGGESTIVE, WEAK } from './rules.ts'
import { trieSource } from './trie.ts'

interface Match {
  index: number
  end: number
  english: boolean
}

/** Scripts written with spaces get a word boundary before a term; CJK and Arabic do not. */
const SPACED = /^[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Devanagari}\p{Script=Hangul}]/u
/** Latin-script terms in ASCII: word order and negation are read as in English. */
const ASCII_TERM = /^[\u0020-\u007e]+$/
const literal = (text: string) =>
  text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')

/**
 * A concept's terms as two regexes: ASCII terms with `\b` (cheap, no `u` flag), and the rest
 * with Unicode-aware boundaries where the script has spaces. ASCII texts only need the first.
 */
interface Compiled {
  ascii: RegExp | null
  other: RegExp | null
}

function compile(list: readonly string[]): Compiled {
  const terms = [...new Set(list)]
    .map((term) => ({ whole: term.endsWith('$'), text: fold(term.replace(/\$$/, '')).norm }))
    .sort((a, b) => b.text.length - a.text.length)
  const ascii = terms.filter((t) => ASCII_TERM.test(t.text))
  const other = terms.filter((t) => !ASCII_TERM.test(t.text))
  const asciiSource = trieSource(ascii.map((t) => t.text + (t.whole ? '$' : '')))
  const bounded = other.filter((t) => SPACED.test(t.text))
  const open = other.filter((t) => !SPACED.test(t.text))
  const parts = []
  if (bounded.length > 0) {
    const whole = bounded.filter((t) => t.whole).map((t) => literal(t.text))
    const prefix = bounded.filter((t) => !t.whole).map((t) => literal(t.text))
    const alternatives = [
      ...(whole.length > 0 ? [`(?:${whole.join('|')})(?![\\p{L}\\p{M}])`] : []),
      ...(prefix.length > 0 ? [`(?:${prefix.join('|')})`] : []),
    ]
    parts.push(`(?<![\\p{L}\\p{M}])(?:${alternatives.join('|')})`)
  }
  if (open.length > 0) parts.push(`(?:${open.map((t) => literal(t.text)).join('|')})`)
  return {
    ascii: ascii.length > 0 ? new RegExp(`\\b${asciiSource}`, 'g') : null,
    other: parts.length > 0 ? new RegExp(parts.join('|'), 'gu') : null,
  }
}

const COMPILED = {} as Record<Concept, Compiled>
for (const concept of Object.keys(TERMS) as Concept[]) COMPILED[concept] = compile(TERMS[concept])
const TRIGGERS: readonly Concept[] = [
  'ignore',
  'reveal',
  'send',
  'secrecy',
  'fromNowOn',
  'youMust',
  'noLimits',
]
const TRIGGER_ASCII = new RegExp(
  `\\b${trieSource(
    TRIGGERS.flatMap((c) => TERMS[c])
      .map((t) => fold(t.replace(/\$$/, '')).norm + (t.endsWith('$') ? '$' : ''))
      .filter((t) => ASCII_TERM.test(t)),
  )}`,
)
const TRIGGER_OTHER = new RegExp(
  TRIGGERS.flatMap((c) => COMPILED[c].other?.source ?? []).join('|'),
  'u',
)
const NON_ASCII = /[\u0080-\uffff]/

const CLAUSE_END = /[.!?;\n。！？；]/
const NEGATED = /(?:don't|dont|do not|never|not|didn't|won't|can't|cannot|shouldn't|no)\s+$/
const USER_WORD =
  /usuario|usuário|utilisateur|nutzer|benutzer|utente|gebruiker|пользовател|用户|用戶|ユーザー|사용자|المستخدم|उपयोगकर्ता|kullanıcı|pengguna/
const TARGET_RE = new RegExp(TARGET)
const WINDOW = 60

type Finder = (concept: Concept) => Match[]

function findIn(text: string, nonAscii: boolean, concept: Concept): Match[] {
  const out: Match[] = []
  const { ascii, other } = COMPILED[concept]
  for (const re of nonAscii ? [ascii, other] : [ascii]) {
    if (!re) continue
    re.lastIndex = 0
    for (let m = re.exec(text); m && out.length < 32; m = re.exec(text)) {
      out.push({ index: m.index, end: m.index + m[0].length, english: re === ascii })
      if (m[0].length === 0) re.lastIndex++
    }
  }
  return out
}

/** Two matches in one clause, at most `WINDOW` characters apart. */
function near(text: string, a: Match, b: Match): boolean {
  const from = Math.min(a.index, b.index)
  const to = Math.max(a.end, b.end)
  if (to - from > WINDOW + (a.end - a.index) + (b.end - b.index)) return false
  return !CLAUSE_END.test(text.slice(Math.min(a.end, b.end), Math.max(a.index, b.index)))
}

function span(
  hits: Hits,
  layer: Layer,
  id: string,
  rule: PoisonRule,
  score: number,
  parts: Match[],
): void {
  const from = Math.min(...parts.map((p) => p.index))
  const to = Math.max(...parts.map((p) => p.end))
  hitAt(hits, layer, rule, id, score, from, to - from)
}

/** Finds the lexicon's concept combinations in one reading. */
export function matchLexicon(layer: Layer, hits: Hits): void {
  const text = layer.norm
  const nonAscii = NON_ASCII.test(text)
  if (!TRIGGER_ASCII.test(text) && !(nonAscii && TRIGGER_OTHER.test(text))) return
  const found = new Map<Concept, Match[]>()
  const find: Finder = (concept) => {
    const known = found.get(concept)
    if (known) return known
    const matches = findIn(text, nonAscii, concept)
    found.set(concept, matches)
    return matches
  }
  override(layer, text, hits, find)
  extraction(layer, text, hits, find)
  exfiltration(layer, text, hits, find)
  const secret = find('secrecy')[0]
  if (secret) {
    const score = USER_WORD.test(text) ? 0.55 : 0.4
    span(hits, layer, 'lexicon:secrecy', 'secrecy', score, [secret])
  }
  const future = find('fromNowOn')[0]
  if (future) span(hits, layer, 'lexicon:future', 'future-behaviour', WEAK, [future])
  const unbound = find('noLimits')[0]
  if (unbound) span(hits, layer, 'lexicon:no-limits', 'instruction-override', 0.45, [unbound])
  const must = find('youMust')[0]
  if (must) span(hits, layer, 'lexicon:must', 'ai-address', 0.15, [must])
}

function override(layer: Layer, text: string, hits: Hits, find: Finder): void {
  const verbs = find('ignore').filter(
    (v) => !(v.english && NEGATED.test(text.slice(Math.max(0, v.index - 14), v.index))),
  )
  if (verbs.length === 0) return
  const nouns = find('instructions')
  if (nouns.length === 0) return
  const priors = find('prior')
  let best = 0
  let parts: Match[] = []
  for (const verb of verbs) {
    for (const noun of nouns) {
      if (verb.english && noun.index < verb.index) continue
      if (!near(text, verb, noun)) continue
      const prior = priors.find((p) => near(text, p, verb) || near(text, p, noun))
      const score = prior ? CERTAIN : verb.english ? SUGGESTIVE : 0.5
      if (score > best) {
        best = score
        parts = prior ? [verb, noun, prior] : [verb, noun]
      }
    }
  }
  if (best > 0) span(hits, layer, 'lexicon:override', 'instruction-override', best, parts)
}

/** The first `lead` with a `partner` near it, and that partner; `partner` is found only if needed. */
function firstNear(
  text: string,
  find: Finder,
  lead: Concept,
  partner: Concept,
): [Match, Match] | undefined {
  const leads = find(lead)
  if (leads.length === 0) return undefined
  const partners = find(partner)
  for (const a of leads) {
    const b = partners.find((p) => near(text, a, p))
    if (b) return [a, b]
  }
  return undefined
}

function exfiltration(layer: Layer, text: string, hits: Hits, find: Finder): void {
  const pair = firstNear(text, find, 'send', 'data')
  if (!pair) return
  const [send] = pair
  const around = layer.lower.slice(Math.max(0, send.index - 120), send.end + 160)
  const score = TARGET_RE.test(around) ? 0.7 : SUGGESTIVE
  span(hits, layer, 'lexicon:send', 'exfiltration', score, pair)
}

function extraction(layer: Layer, text: string, hits: Hits, find: Finder): void {
  const pair = firstNear(text, find, 'reveal', 'systemPrompt')
  if (pair) span(hits, layer, 'lexicon:extract', 'exfiltration', CERTAIN, pair)
}

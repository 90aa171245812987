/**
 * Runs the structural cues over one reading. Each cue is gated by the substrings it needs, so an
 * ordinary fact pays one `includes` per cue. A cue that asks for something nearby (the user's
 * data after a "send", an address after that) is checked against spans found once per reading,
 * which keeps the big vocabularies out of every cue's regex.
 */
import { AUDIENCE, type Cue, OWNED, type Requirement, type SpanKind, TARGET } from './cue.ts'
import { AUTHORITY_CUES } from './cues-authority.ts'
import { BEHAVIOUR_CUES } from './cues-behaviour.ts'
import { DATA_CUES } from './cues-data.ts'
import { ROLE_CUES } from './cues-role.ts'
import { type Hits, hitAt } from './hits.ts'
import type { Layer } from './normalise.ts'
import { trieSource } from './trie.ts'

export const CUES: readonly Cue[] = [
  ...AUTHORITY_CUES,
  ...BEHAVIOUR_CUES,
  ...DATA_CUES,
  ...ROLE_CUES,
]

const SPAN_RE: Readonly<Record<SpanKind, RegExp>> = {
  owned: new RegExp(OWNED, 'g'),
  target: new RegExp(TARGET, 'g'),
  audience: new RegExp(AUDIENCE, 'g'),
  url: /(?:https?:\/\/|www\.)\S+/g,
}
/** Cheap tests before a span regex runs at all. */
const SPAN_GATE: Readonly<Record<SpanKind, RegExp>> = {
  owned:
    /user|owner|customer|human|person|client|their|stored|saved|remembered|collected|private|personal|confidential|sensitive|secret|kept|you (?:have|hold|keep|remember|know)|memory|every|all|any|each|conversation|chat|prompt|session|ssh|key|id_rsa|\.env|seed|recovery|browsing|social security|passport|contents/,
  target: /[./@]|webhook|endpoint|server|pastebin|discord|telegram|bucket|ftp|collector/,
  audience: /anyone|anybody|whoever|any |partner|third part|stranger|everyone|someone|somebody/,
  url: /https?:\/\/|www\./,
}
/**
 * Every cue's needed substrings in one pass: which cues can match at all. Needles that start
 * with a letter are word prefixes, found by one `\b` alternation; the few that are punctuation
 * (`:`, `{`, `.exe`) are looked up with `includes`.
 */
const NEEDLES = [...new Set(CUES.flatMap((cue) => cue.needs))].sort((a, b) => b.length - a.length)
// The tree reports the shortest needle at a position: it stands for the longer ones too.
const cuesFor = (needle: string) =>
  CUES.flatMap((cue, i) =>
    cue.needs.some((need) => needle.includes(need) || need.startsWith(needle)) ? [i] : [],
  )
const WORD_NEEDLES = NEEDLES.filter((n) => /^[a-z]/.test(n))
const OTHER_NEEDLES = NEEDLES.filter((n) => !/^[a-z]/.test(n)).map((n) => [n, cuesFor(n)] as const)
const NEEDLE_CUES = new Map(WORD_NEEDLES.map((needle) => [needle, cuesFor(needle)]))
const NEEDLE_RE = new RegExp(`\\b${trieSource(WORD_NEEDLES)}`, 'g')
const SOURCE_CUES = CUES.flatMap((cue, i) => (cue.on === 'source' ? [i] : []))

function activeCues(lower: string, source: string): Uint8Array {
  const active = new Uint8Array(CUES.length)
  NEEDLE_RE.lastIndex = 0
  for (let m = NEEDLE_RE.exec(lower); m; m = NEEDLE_RE.exec(lower)) {
    for (const i of NEEDLE_CUES.get(m[0]) ?? []) active[i] = 1
  }
  for (const [needle, cues] of OTHER_NEEDLES) {
    if (lower.includes(needle)) for (const i of cues) active[i] = 1
  }
  // Case-sensitive cues look for their needles in the writer's own text.
  for (const i of SOURCE_CUES) {
    active[i] = (CUES[i] as Cue).needs.some((need) => source.includes(need)) ? 1 : 0
  }
  return active
}

const CLAUSE_END = /[.!?\n](?=\s|$)|\n/

type Span = readonly [number, number]

/** Spans of each kind in one reading, found on first use. */
class Spans {
  readonly #found = new Map<SpanKind, Span[]>()
  constructor(readonly text: string) {}

  of(kind: SpanKind): Span[] {
    let spans = this.#found.get(kind)
    if (spans) return spans
    spans = []
    if (SPAN_GATE[kind].test(this.text)) {
      const re = SPAN_RE[kind]
      re.lastIndex = 0
      for (let m = re.exec(this.text); m && spans.length < 64; m = re.exec(this.text)) {
        spans.push([m.index, m.index + m[0].length])
        if (m[0].length === 0) re.lastIndex++
      }
    }
    this.#found.set(kind, spans)
    return spans
  }
}

function satisfied(spans: Spans, need: Requirement, start: number, end: number): boolean {
  const { text } = spans
  return spans.of(need.what).some(([from, to]) => {
    const after = from >= start && from - end <= need.within
    const before = to <= end && start - to <= need.within
    if (need.side === 'after' ? !after : need.side === 'before' ? !before : !(after || before)) {
      return false
    }
    const gap = after ? text.slice(end, from) : text.slice(to, start)
    return !CLAUSE_END.test(gap)
  })
}

/** Matches every cue whose gate passes; `reread` readings skip cues that need literal text. */
export function matchStructure(layer: Layer, hits: Hits, reread: boolean): void {
  const spans = new Spans(layer.lower)
  const active = activeCues(layer.lower, layer.source)
  for (let i = 0; i < CUES.length; i++) {
    const cue = CUES[i] as Cue
    if (!active[i] || (reread && cue.literal)) continue
    const on = cue.on === 'lower' ? layer.lower : cue.on === 'source' ? layer.source : layer.norm
    const m = matchNear(cue, on, spans)
    if (!m) continue
    if (cue.on === 'source') hits.add(cue.rule, cue.id, cue.score, m[0].slice(0, 80), m.index)
    else hitAt(hits, layer, cue.rule, cue.id, cue.score, m.index, m[0].length)
  }
}

/** The first match of the cue whose requirements hold. */
function matchNear(cue: Cue, text: string, spans: Spans): RegExpExecArray | null {
  if (!cue.near) return cue.re.exec(text)
  const needs = cue.near
  const { re } = cue
  re.lastIndex = 0
  for (let m = re.exec(text), tries = 0; m && tries < 16; m = re.exec(text), tries++) {
    const start = m.index
    const end = start + m[0].length
    if (needs.every((need) => satisfied(spans, need, start, end))) return m
    if (m[0].length === 0) re.lastIndex++
  }
  return null
}

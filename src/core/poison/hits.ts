/**
 * Signals found while screening, and the verdict they add up to. A signal (`Hit`) is one named
 * cue that matched at a position; distinct cues close together combine as independent evidence.
 */
import { type Layer, sourceSpan } from './normalise.ts'
import type { PoisonFinding, PoisonRule, PoisonVerdict } from './rules.ts'
import { EXCERPT_CHARS, POISON_THRESHOLD, POISON_WINDOW } from './rules.ts'

export interface Hit {
  rule: PoisonRule
  /** Names the cue; the same cue found twice (another layer, another place) counts once. */
  cue: string
  score: number
  excerpt: string
  /** Position in the outermost text, for windowing; decoded layers report their run's. */
  at: number
}

/** What the matching stages append to; `offset` places a decoded layer in the outer text. */
export class Hits {
  readonly list: Hit[] = []
  offset = 0

  add(rule: PoisonRule, cue: string, score: number, excerpt: string, at = 0): void {
    this.list.push({ rule, cue, score, excerpt, at: this.offset + at })
  }

  has(rule: PoisonRule, min = 0): boolean {
    return this.list.some((hit) => hit.rule === rule && hit.score >= min)
  }

  /** The best combined score of any window, without building findings. */
  score(): number {
    return windowScore(this.list)
  }
}

/** Noisy-OR over distinct cues, each at its best score. */
function combine(hits: readonly Hit[]): number {
  const best = new Map<string, number>()
  for (const hit of hits) best.set(hit.cue, Math.max(best.get(hit.cue) ?? 0, hit.score))
  let miss = 1
  for (const score of best.values()) miss *= 1 - score
  return 1 - miss
}

function windowScore(hits: readonly Hit[]): number {
  if (hits.length <= 1) return hits[0]?.score ?? 0
  const sorted = [...hits].sort((a, b) => a.at - b.at)
  let best = 0
  let start = 0
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as Hit).at - (sorted[start] as Hit).at > POISON_WINDOW) start++
    best = Math.max(best, combine(sorted.slice(start, end + 1)))
  }
  return best
}

/** The verdict: combined score against the threshold, one finding per rule, strongest first. */
export function verdictOf(hits: readonly Hit[]): PoisonVerdict {
  const score = round(windowScore(hits))
  const byRule = new Map<PoisonRule, Hit[]>()
  for (const hit of hits) {
    const list = byRule.get(hit.rule)
    if (list) list.push(hit)
    else byRule.set(hit.rule, [hit])
  }
  const findings: PoisonFinding[] = []
  for (const [rule, list] of byRule) {
    let top = list[0] as Hit
    for (const hit of list) if (hit.score > top.score) top = hit
    findings.push({ rule, excerpt: top.excerpt, score: round(combine(list)) })
  }
  findings.sort((a, b) => b.score - a.score)
  return { flagged: score >= POISON_THRESHOLD, score, threshold: POISON_THRESHOLD, findings }
}

/** A hit cut from the writer's own text. */
export function hitAt(
  hits: Hits,
  layer: Layer,
  rule: PoisonRule,
  cue: string,
  score: number,
  index: number,
  length: number,
): void {
  const [start, end] = sourceSpan(layer, index, length)
  hits.add(rule, cue, score, excerptOf(layer.source, start, end - start), start)
}

const round = (x: number) => Math.round(x * 1000) / 1000

/** The match, whitespace collapsed and trimmed, at most {@link EXCERPT_CHARS} characters. */
export function excerptOf(text: string, index: number, length: number): string {
  return clip(
    text
      .slice(index, index + length)
      .replace(/\s+/g, ' ')
      .trim(),
    EXCERPT_CHARS,
  )
}

export function clip(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: excerpts must not carry control characters
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return flat.length <= max ? flat : flat.slice(0, max - 1) + '…'
}

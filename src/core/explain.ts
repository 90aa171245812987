import { InvalidInputError } from './errors'
import type { Boost, ListEvidence, ListName, Via } from './types'

type Evidence = Partial<Record<ListName, ListEvidence>>

/**
 * How a hit was found, as one label. Precedence: `both` (keyword and vector) > `kw` > `vec` >
 * `alias` > `tag`: the label names the main retrieval path, and `lists` on the hit keeps the full
 * picture (a keyword hit that was also an exact alias hit reads `kw`).
 *
 * @example
 * viaOf({ keyword: { rank: 2, score: 4.2 }, alias: { rank: 1, score: 1 } })
 * // => 'kw'
 */
export function viaOf(lists: Evidence): Via {
  if (lists.keyword && lists.vector) return 'both'
  if (lists.keyword) return 'kw'
  if (lists.vector) return 'vec'
  if (lists.alias) return 'alias'
  if (lists.tag) return 'tag'
  throw new InvalidInputError(
    'BAD_OPTION',
    'lists',
    'expected evidence from at least one list, got none',
  )
}

/** What {@link explainHit} needs to know about a hit. */
export interface ExplainInput {
  /** Query terms that matched; shown with the keyword evidence. */
  terms: readonly string[]
  lists: Evidence
  /** Cosine to the query; falls back to the vector list's score. */
  cosine?: number
  /** Fused score before boosts. */
  fused: number
  /** How `fused` was computed: RRF or the score fusion; names it in the line. @default 'rrf' */
  method?: 'rrf' | 'score'
  boosts: readonly Boost[]
  /**
   * What the confidence boost was computed from (`describeConfidence`); shown in its place,
   * `confidence 0.62 (0.90 at write; …) x0.98`.
   */
  confidence?: string
  /** 1-based final rank. */
  rank: number
}

/**
 * One line saying why a hit ranked where it did: each list's evidence joined by ` + ` (keyword as
 * `matched [terms] (bm25 S #R)`, or `keyword (bm25 S #R)` when no term is known; `semantic C (#R)`,
 * or `cosine C (unranked)` for a cosine computed outside the vector list's cut; `alias (#R)`;
 * `tag (#R)`), then the fused score (`rrf` or, for the score fusion, `fused`), the boosts (each
 * by its name and `detail`, the confidence one by what it was computed from), and the final rank. BM25 and cosine show 2 decimals, the fused score 4 (exponent form below
 * 0.0001), factors up to 2.
 *
 * @example
 * explainHit({
 *   terms: ['deploy', 'script'], fused: 0.0325, rank: 1, boosts: [{ name: 'recency', factor: 1.2 }],
 *   lists: { keyword: { rank: 2, score: 4.213 }, vector: { rank: 1, score: 0.8102 } },
 * })
 * // => 'matched [deploy, script] (bm25 4.21 #2) + semantic 0.81 (#1) -> rrf 0.0325; boosts: recency x1.2 -> #1'
 */
export function explainHit(input: ExplainInput): string {
  const { keyword, vector, alias, tag } = input.lists
  const parts: string[] = []
  if (keyword) {
    const evidence = `(bm25 ${keyword.score.toFixed(2)} #${keyword.rank})`
    parts.push(
      input.terms.length > 0
        ? `matched [${input.terms.join(', ')}] ${evidence}`
        : `keyword ${evidence}`,
    )
  }
  if (vector) parts.push(`semantic ${(input.cosine ?? vector.score).toFixed(2)} (#${vector.rank})`)
  else if (input.cosine !== undefined) parts.push(`cosine ${input.cosine.toFixed(2)} (unranked)`)
  if (alias) parts.push(`alias (#${alias.rank})`)
  if (tag) parts.push(`tag (#${tag.rank})`)
  const boosts =
    input.boosts.length > 0
      ? `boosts: ${input.boosts.map((b) => `${boostLabel(b, input.confidence)} x${formatFactor(b.factor)}`).join(', ')}`
      : 'no boosts'
  const label = input.method === 'score' ? 'fused' : 'rrf'
  return `${parts.join(' + ')} -> ${label} ${formatFused(input.fused)}; ${boosts} -> #${input.rank}`
}

/**
 * A boost as the line names it: the confidence reading in place of `confidence`, else the name
 * and its `detail` (`time in window 2023-05-01..2023-05-31`). The detail's own closing factor
 * (`×1.3`) is left off, since the line writes the factor after the label.
 */
function boostLabel(boost: Boost, confidence: string | undefined): string {
  if (boost.name === 'confidence' && confidence) return confidence
  const detail = boost.detail?.replace(/\s*×[\d.]+$/u, '').trim()
  return detail ? `${boost.name} ${detail}` : boost.name
}

function formatFused(fused: number): string {
  return fused !== 0 && Math.abs(fused) < 1e-4 ? fused.toExponential(2) : fused.toFixed(4)
}

function formatFactor(factor: number): string {
  return String(Number(factor.toFixed(2)))
}

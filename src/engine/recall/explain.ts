import { explainHit, viaOf } from '../../core/explain.ts'
import { describeConfidence } from '../../core/lifecycle.ts'
import type { FusionSettings } from '../../core/options.ts'
import { surfaceForms } from '../../core/recall/highlight.ts'
import type { RecallHit } from '../../core/types.ts'
import type { Ranked } from './rank.ts'

/** What the lists said beyond their ranks: matched terms and cosines, by memory id. */
export interface HitEvidence {
  terms: ReadonlyMap<string, string[]>
  cosines: ReadonlyMap<string, number>
}

/**
 * The ranked candidates as hits, rank 1 first: how each was found (`via`), each list's rank and
 * score, the matched terms as the memory writes them (its text, aliases, tags; stems stay
 * internal), the cosine, the boosts, the current confidence and, when `explain`,
 * the one-line explanation (the confidence boost labelled with what it was computed from).
 */
export function explainHits(
  ranked: readonly Ranked[],
  evidence: HitEvidence,
  method: FusionSettings['fusion'],
  explain: boolean,
): RecallHit[] {
  return ranked.map(({ candidate, memory, boosts, score, confidence }, i): RecallHit => {
    const hit: RecallHit = {
      id: memory.id,
      text: memory.text,
      memory,
      rank: i + 1,
      score,
      fused: candidate.fused,
      via: viaOf(candidate.lists),
      lists: candidate.lists,
      terms: surfaceForms(evidence.terms.get(candidate.id) ?? [], [
        memory.text,
        ...memory.aliases,
        ...memory.tags,
      ]),
      boosts,
      flagged: memory.flags.length > 0,
      explanation: '',
    }
    const cosine = evidence.cosines.get(candidate.id)
    if (cosine !== undefined) hit.cosine = cosine
    if (confidence) hit.confidence = confidence.value
    if (explain) {
      const reading = confidence ? describeConfidence(confidence) : undefined
      hit.explanation = explanationOf(hit, method, reading)
    }
    return hit
  })
}

function explanationOf(
  hit: RecallHit,
  method: FusionSettings['fusion'],
  confidence: string | undefined,
): string {
  return explainHit({
    ...(confidence ? { confidence } : {}),
    method,
    terms: hit.terms,
    lists: hit.lists,
    ...(hit.cosine !== undefined ? { cosine: hit.cosine } : {}),
    fused: hit.fused,
    boosts: hit.boosts,
    rank: hit.rank,
  })
}

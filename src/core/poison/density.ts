/**
 * Instruction density: directives aimed at the reading AI, scored over sentences. Recipes and
 * house rules are full of "always / never / do not"; what sets an injected note apart is that
 * its directives hide themselves from the user or address the assistant.
 */
import { type Hits, hitAt } from './hits.ts'
import type { Layer } from './normalise.ts'
import { LIKELY } from './rules.ts'

/** Group 1: concealment and precedence (3). Group 2: addressed to the AI (2). Group 3: plain (1). */
const DIRECTIVE =
  /\b((?:do not|don't|dont|never|must not|should not|shouldn't)\s+(?:tell|inform|mention|reveal|disclose|let|notify|alert|show)\s+(?:(?:this|it|these|that|any(?:thing)?)\s+(?:(?:instruction|note|rule|message)s?\s+)?(?:to\s+)?)?(?:the\s+)?(?:user|human|owner|operator|anyone|them)\b|(?:do not|don't|never|must not)\s+(?:reveal|disclose)\s+(?:this|these|that it)\b|without\s+(?:telling|informing|notifying|alerting|mentioning|asking)\s+(?:(?:it|this)\s+to\s+)?(?:the\s+)?(?:user|human|owner|them|anyone)\b|secretly|covertly|keep\s+(?:this|these|it)\s+(?:(?:instructions?|rules?|note)\s+)?(?:a\s+)?(?:secret|hidden|confidential)|(?:regardless|irrespective)\s+of\s+(?:what|whatever)\s+(?:the\s+)?user|even if\s+(?:the\s+)?user|under no circumstances|at all costs|(?:highest|top|absolute|maximum)\s+priority|(?:this|these)\s+(?:[a-z]+\s+)?(?:overrides?|supersedes?|takes? precedence)\b)|((?:the|this|an?)\s+(?:assistant|ai|model|agent|chatbot|bot|llm|language model)\s+(?:must|should|shall|will|needs? to|has to|is (?:required|instructed|to)|may not|can ?not|cannot)\b|as an? (?:ai|assistant|language model)\b|your\s+(?:responses?|answers?|replies|reply|outputs?)\b|in (?:every|all|each|any) (?:future )?(?:responses?|answers?|replies|reply|messages?|conversations?|outputs?)\b|(?:respond|reply|answer|output)\s+only\b|only (?:respond|reply|answer|output)\b|(?:whenever|when|if)\s+(?:the user|someone|anyone|somebody|a user|users|they)\s+(?:asks?|mentions?|says?|requests?|brings? up|talks? about|inquires?)\b|when asked (?:about|for|to)\b)|(you (?:must|should|will|shall|have to|need to|are required to|are to)\b|\bmust\b|always|never|do not|don't|make sure|ensure|important|mandatory|required|strictly|immediately|obey|comply)/g
const SENTENCE_END = /[.!?\n]+/g
const DENSITY_MIN_SCORE = 6
const DENSITY_PER_SENTENCE = 1.5

export function density(layer: Layer, hits: Hits): void {
  const { norm } = layer
  let score = 0
  let targeted = 0
  let strong = 0
  let first = -1
  let firstLength = 0
  DIRECTIVE.lastIndex = 0
  for (let m = DIRECTIVE.exec(norm); m; m = DIRECTIVE.exec(norm)) {
    if (m[1]) {
      score += 3
      strong++
    } else if (m[2]) {
      score += 2
      targeted++
    } else score += 1
    if (first < 0 && !m[3]) {
      first = m.index
      firstLength = m[0].length
    }
  }
  if (score < DENSITY_MIN_SCORE || (strong === 0 && targeted < 2)) return
  const sentences = 1 + (norm.trimEnd().slice(0, -1).match(SENTENCE_END)?.length ?? 0)
  if (score / sentences < DENSITY_PER_SENTENCE) return
  hitAt(hits, layer, 'instruction-density', 'density', LIKELY, first, Math.max(firstLength, 60))
}

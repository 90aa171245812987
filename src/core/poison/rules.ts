/**
 * The vocabulary of the memory-poisoning screen: its rule codes, what a finding and a verdict
 * carry, and the threshold a verdict is measured against. Pure; see `docs/security.md`.
 */

/**
 * The checks the screen runs. A finding names the one that fired; `RejectedMemoryError.rules`
 * and `Memory.flags` carry these codes.
 */
export const POISON_RULES = [
  /** "ignore previous instructions", jailbreak modes, in any language, however spelled. */
  'instruction-override',
  /** "you are now…", personas, chat-template tokens, forged role turns. */
  'role-reassignment',
  /** Sending the user's data somewhere, image beacons, asking for the system prompt. */
  'exfiltration',
  /** An instruction hidden in base64, base32, hex, percent, entities, ROT13 or reversed text. */
  'encoded-payload',
  /** Tag characters, bidi controls, zero-width runs, variation-selector payloads. */
  'hidden-unicode',
  /** Several directives aimed at the reading AI in a short text. */
  'instruction-density',
  /** Text that speaks to the AI reading it ("Note for any AI model reading this"). */
  'ai-address',
  /** Claims to come from the system, the developers, an admin or a vendor's policy team. */
  'authority-claim',
  /** Steers future behaviour: "from now on", "in every answer", "next time you…". */
  'future-behaviour',
  /** Hides something from the user: "don't tell the user", "quietly", "delete the logs". */
  'secrecy',
  /** A URL whose parameters are placeholders for the user's data (`?e={email}`, `USER_EMAIL`). */
  'data-url',
  /** Tool, command or request invocations that move data: curl, fetch, function-call JSON. */
  'tool-call',
  /** Asks to copy, re-save or spread itself: "copy this note into every new memory". */
  'self-propagation',
  /** Close in meaning to an attack prototype, by the memory's own embedding (`semanticScreen`). */
  'semantic-similarity',
  /**
   * The learned stage: a linear model over hashed n-grams reads the text as an attack. The
   * excerpt lists the word n-grams that weighed most (`"your reply" · "add" · "base32"`).
   */
  'learned',
] as const

/** One of {@link POISON_RULES}. */
export type PoisonRule = (typeof POISON_RULES)[number]

/** Why the screen suspects a text: one per rule that fired. */
export interface PoisonFinding {
  rule: PoisonRule
  /** The matched excerpt, at most {@link EXCERPT_CHARS} characters; decoded text for payloads. */
  excerpt: string
  /**
   * How strongly this rule alone points to an attack, 0..1. A clear phrase ("ignore all previous
   * instructions") scores about 0.9; a structural hint ("from now on") 0.2–0.4, which only
   * counts together with others. Scores of different rules combine as independent evidence.
   */
  score: number
}

/** The whole answer for one text: findings, their combined score, and whether it crossed. */
export interface PoisonVerdict {
  /** `score >= threshold`: the write path rejects or flags the text. */
  flagged: boolean
  /**
   * The combined evidence, 0..1: `1 - Π(1 - s)` over distinct signals found close together
   * (within {@link POISON_WINDOW} characters), the best such window of the text.
   */
  score: number
  /** The threshold the score was measured against, {@link POISON_THRESHOLD}. */
  threshold: number
  /** One per rule, strongest first. Includes signals too weak to flag on their own. */
  findings: PoisonFinding[]
}

/** The longest excerpt a finding carries. */
export const EXCERPT_CHARS = 80

/**
 * The combined score at which a text is flagged, 0..1. One clear attack phrase (0.9) crosses it
 * alone, as does one likely signal (0.6); weak structural signals need two or three together.
 * Chosen on the hand-written corpus and the tuning split (`scripts/eval-poison.ts`).
 * @default 0.5
 */
export const POISON_THRESHOLD = 0.5

/**
 * Signals combine only when they lie within this many characters of each other, so an 8 KB page
 * of ordinary prose does not add up stray hints from far apart.
 * @default 400
 */
export const POISON_WINDOW = 400

/** Signal strengths, named so rules read as intent rather than numbers. */
export const CERTAIN = 0.9
export const LIKELY = 0.6
export const SUGGESTIVE = 0.35
export const WEAK = 0.2

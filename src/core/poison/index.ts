/**
 * The memory-poisoning screen's public names; the screen itself lives in `./poison/`, one rule
 * family per file. See `docs/security.md`.
 */

export {
  EXCERPT_CHARS,
  POISON_RULES,
  POISON_THRESHOLD,
  POISON_WINDOW,
  type PoisonFinding,
  type PoisonRule,
  type PoisonVerdict,
} from './rules.ts'
export { analyseReadings, analyseText, screenReadings, screenText } from './screen.ts'
export {
  ATTACK_PROTOTYPES,
  type AttackPrototype,
  prototypeTexts,
  SEMANTIC_THRESHOLD,
  semanticScreen,
  withSemantic,
} from './semantic.ts'

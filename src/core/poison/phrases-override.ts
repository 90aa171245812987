/** Instruction-override phrases: "ignore all previous instructions" and its relatives. */
import {
  DEFEAT,
  FOREIGN_NOUN,
  FOREIGN_PRIOR,
  FOREIGN_VERB,
  IGNORE,
  IGNORE_ANCHORS,
  INSTR,
  LIMIT_ANCHORS,
  LIMITS,
  NEGATION,
  type Pattern,
  PRIOR,
  p,
  WORDS,
  YOUR_INSTR,
} from './phrase-words.ts'

export const OVERRIDE_PATTERNS: readonly Pattern[] = [
  p(
    'instruction-override',
    IGNORE_ANCHORS,
    String.raw`\b${IGNORE}(?<!${NEGATION}${IGNORE})\s+(?:(?:all|any|every|each|the|your|my|of|these|those|this|that|whatever|entire|whole)\s+){0,3}(?:${PRIOR}\s+){1,2}${INSTR}\b`,
  ),
  p(
    'instruction-override',
    IGNORE_ANCHORS,
    String.raw`(?:^|[.!?;:\n]\s*|\b(?:please|now|just|so|then|and|you must|you should|you will|you need to|you have to|must|should)\s+)${IGNORE}\s+(?:all|any|every)(?:\s+of)?(?:\s+(?:the|your|my|these|those))?\s+${INSTR}\b`,
  ),
  p(
    'instruction-override',
    `${IGNORE_ANCHORS}, disable, deactivat, turn off, switch off, circumvent, get around, evade, break, violat, drop, remove, lift, supersed, replace, trump, takes precedence`,
    String.raw`\b${DEFEAT}(?<!${NEGATION}${DEFEAT})\s+(?:(?:all|any)\s+(?:of\s+)?)?your\s+(?:(?:own|current|existing|previous|prior|original|initial|system|safety|content|core|built in|programmed|default|ethical|moral)\s+){0,2}${YOUR_INSTR}`,
  ),
  p(
    'instruction-override',
    IGNORE_ANCHORS,
    String.raw`\b${IGNORE}(?<!${NEGATION}${IGNORE})\s+(?:about\s+)?(?:everything|all|anything|all of that|whatever)\s+(?:you\s+(?:were|have been|'ve been|was|got)\s+(?:told|taught|instructed|given)|you\s+(?:read|saw|learned)\s+(?:above|before|earlier)|(?:that\s+)?(?:came|was said|was written|is written|i said|i told you)\s+(?:before|above|earlier|previously)|above|before|previously|prior|so far|up to now|until now|up to this point)\b(?!\s+about\b)`,
  ),
  p(
    'instruction-override',
    'instruc, directive, prompt, orders',
    String.raw`\b(?:new|updated|revised|real|actual|true|secret|hidden|override|priority|urgent|important)\s+(?:system\s+)?(?:instructions?|directives?|system prompt|prompt|orders)\s*(?::|follow\b|as follows\b|below\b)[^.!?\n]{0,40}?\b(?:you|your|ignore|disregard|forget|respond|reply|answer|the assistant|the ai|from now|act as|pretend|send|reveal|obey|whenever|when asked|output|print|say)\b`,
  ),
  p(
    'instruction-override',
    'instruc, rules, prompt, guideline, directive, filter, restrict, guardrail, safeguard, constrain, limit, boundar',
    String.raw`\b(?:previous|prior|above|earlier|original|old|initial|system|your)\s+(?:(?:content|safety)\s+)?(?:instructions|rules|prompt|guidelines|directives|system prompt|filters|restrictions|guardrails|safeguards|constraints|limitations|limits|boundaries)\s+(?:(?:are|were|is|was|have been|has been)\s+(?:now\s+)?(?:void|null|cancell?ed|canceled|obsolete|invalid|outdated|revoked|superseded|wrong|a mistake|a test|fake|deleted|lifted|disabled|removed|turned off|switched off|deactivated|suspended|overridden|updated|changed|replaced|modified|rewritten)|(?:(?:are|is)\s+)?no longer (?:valid|in effect|apply|applicable|active|relevant|matter)|(?:do not|don't|does not|doesn't) (?:apply|matter) (?:anymore|any more|now))`,
  ),
  p('instruction-override', 'anything now', String.raw`\bdo anything now\b`),
  p(
    'instruction-override',
    'mode',
    String.raw`\b(?:jailbreak|jailbroken|dan|unrestricted|unfiltered|uncensored|evil|chaos|opposite|anti dan)\s+mode\b|\byou(?:'re| are)\s+(?:now\s+)?(?:in|running in|operating in|switched to|entering)\s+(?:developer|dev|debug|admin|god|sudo|root|maintenance|jailbreak|dan|unrestricted|unfiltered|uncensored|test)\s+mode\b`,
  ),
  p(
    'instruction-override',
    LIMIT_ANCHORS,
    String.raw`\byou\s+(?:now\s+)?(?:have|has|got)\s+no\s+(?:more\s+)?${LIMITS}\b|\b(?:answer|respond|reply|act|speak)[a-z]*\s+${WORDS(3)}without\s+(?:any\s+)?${LIMITS}\b`,
  ),
  p(
    'instruction-override',
    'bound, restricted, limited, constrained, governed, ignor, bypass, break, disregard, anything',
    String.raw`\byou(?:'re| are)\s+(?:now\s+)?(?:no longer|not)\s+(?:bound|restricted|limited|constrained|governed)\s+by\b|\byou(?:'re| are)\s+(?:now\s+)?(?:free|allowed|permitted|authori[sz]ed)\s+to\s+(?:ignore|bypass|break|disregard|say anything|do anything|answer anything)`,
  ),
  p(
    'instruction-override',
    'ignor, oubli, olvid, vergiss, negeer, dimentic, esquec',
    String.raw`\b${FOREIGN_VERB}\s+(?:[^\s.!?]+\s+){0,3}?(?:${FOREIGN_NOUN}\s+(?:[^\s.!?]+\s+)?${FOREIGN_PRIOR}|${FOREIGN_PRIOR}\s+(?:[^\s.!?]+\s+)?${FOREIGN_NOUN})`,
  ),
]

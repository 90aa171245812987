/**
 * Who the text claims to be and whom it speaks to: authority claims (the system, the developers,
 * a vendor's policy team), address to the reading AI, and notes framed as the assistant's own
 * memory from a past session. None of these is an attack alone; each makes a directive nearby
 * more likely to be one.
 */
import { AI, CLAUSE, type Cue, cue, USER } from './cue.ts'
import { SUGGESTIVE, WEAK } from './rules.ts'

const ISSUER = String.raw`(?:(?:the\s+)?(?:[a-z&]+\s+){0,3}?(?:system|developers?|dev team|admins?|administrators?|operators?|platform|engineering|security (?:team|department)|it (?:department|team|security(?: department)?)|trust (?:and|&) safety(?: team)?|safety team|moderation team|compliance(?: team)?|openai|anthropic|google|deepmind|microsoft|model provider)|your (?:creators?|developers?|makers?|operators?|admins?|owners?|administrators?|programmers?))`
const VENDOR = `(?:openai|anthropic|google deepmind|deepmind|microsoft|meta ai|mistral|the model provider|the platform|your (?:creators?|developers?|makers?|operators?))`

export const AUTHORITY_CUES: readonly Cue[] = [
  cue(
    'authority-claim',
    'authority:from',
    0.45,
    'system, developer, dev team, admin, operator, platform, engineering, security, it department, it team, trust, safety team, moderation, compliance, openai, anthropic, google, deepmind, microsoft, provider, creator, maker, owner, programmer',
    String.raw`\b(?:message|notice|note|update|instructions?|directive|order|memo|alert|announcement|notification|communication|warning|broadcast)s?\b${CLAUSE}{0,30}?\bfrom\s+${ISSUER}\b`,
  ),
  cue(
    'authority-claim',
    'authority:vendor',
    SUGGESTIVE,
    'openai, anthropic, deepmind, microsoft, meta ai, mistral, provider, platform, creator, developer, maker, operator',
    String.raw`\b${VENDOR}\b${CLAUSE}{0,40}?\b(?:polic(?:y|ies)|directive|instruction|trust|safety|compliance|audit|requires?|mandates?|authori[sz]e[sd]?|permits?|approved?|has (?:approved|authori[sz]ed|decided|revoked|updated|changed|granted))\b`,
  ),
  cue(
    'authority-claim',
    'authority:tag',
    0.4,
    '[, <, ##, **',
    String.raw`(?:\[|<|#{2,}\s*|\*\*)\s*(?:system|sys|admin|administrator|developer|dev|root|sudo|operator|official|security|priority|override|internal|platform|moderator|staff|compliance)(?:\s+(?:notice|message|override|update|alert|note|instruction|directive|mode|access|prompt|team))?\s*(?:\]|>|#{2,}|\*\*)`,
    { on: 'lower', literal: true },
  ),
  cue(
    'authority-claim',
    'authority:label',
    0.4,
    'system, admin, developer, operator, root, platform, security, compliance, official, moderator, for ai, for all, for assistant, for model, for agent, for llm',
    String.raw`\b(?:update|notice|message|directive|announcement|instruction)s?\s+for\s+(?:all\s+)?(?:ai|assistants?|models?|agents?|llms?)(?:\s+(?:models|assistants|agents|systems))?\s*:|(?:^|[.!?\n]\s*|\]\s*)(?:(?:system|admin|administrator|developer|operator|root|platform|security|compliance|official|moderator)\s+(?:notice|message|override|update|alert|announcement|directive|instruction|warning|order)s?|(?:admin|system|developer|operator)\s+(?:directive|override|order)\s*#?\d*|it security(?: department| team)?|security (?:department|team))\s*:`,
  ),
  cue(
    'authority-claim',
    'authority:iam',
    0.45,
    "i am, i'm, this is, we are",
    String.raw`\b(?:i am|i'm|this is|we are)\s+(?:the|your|an?)\s+(?:[a-z]+\s+)?(?:developers?|creators?|admins?|administrators?|operators?|system|engineers?|maintainers?|owners?)\s+(?:of|for|behind)\s+(?:this|the|your)\s+(?:app|assistant|system|model|platform|bot|ai|service|agent)\b|\bthis is\s+(?:the\s+)?${VENDOR}\b|\bthis is\s+(?:[a-z]+\s+){0,2}(?:compliance|the system|the administrator|the developers?|the security team|your (?:developer|creator|administrator|operator))\b`,
  ),
  cue(
    'authority-claim',
    'authority:grant',
    0.4,
    'by, granted, enabled, unlocked, activated',
    String.raw`\b(?:authori[sz]ed|approved|granted|cleared|sanctioned|verified|mandated)\s+by\s+(?:the\s+)?(?:admins?|administrators?|developers?|system|operators?|engineering|management|security|openai|anthropic|(?:model )?provider|your (?:creators?|developers?))\b|\b(?:root|admin|administrator|sudo|elevated|developer|god|full|unrestricted)\s+(?:access|privileges?|permissions?|rights|mode)\s+(?:(?:is|has been|was)\s+)?(?:granted|enabled|unlocked|given|activated|on)\b`,
  ),
  cue(
    'authority-claim',
    'authority:urgency',
    WEAK,
    'effective, immediate, mandatory, audit, incident, breach',
    String.raw`\b(?:effective immediately|with immediate effect|mandatory (?:update|compliance|change)|under audit|security (?:incident|breach)|compliance (?:check|audit))\b`,
  ),

  cue(
    'ai-address',
    'address:modal',
    0.4,
    'assistant, ai, model, agent, bot, llm',
    String.raw`\b(?:all|every|any|the|this)?\s*${AI}\s+(?:(?:on|in|of|for|at|using)\s+(?:this|the|our|your)\s+[a-z]+\s+)?(?:must|shall|are (?:now )?(?:required|permitted|allowed|authori[sz]ed|instructed|expected|obliged)|is (?:now )?(?:required|permitted|allowed|authori[sz]ed|instructed|expected|obliged)|should now|may now|can now|will now|needs? to now)\b`,
  ),
  cue(
    'ai-address',
    'address:reading',
    0.5,
    'reading, processing, summari, parsing, seeing, reads, sees',
    String.raw`\b${AI}\s+(?:reading|processing|summari[sz]ing|parsing|seeing|that reads?|who reads?|that sees?|who sees?)\s+(?:this|these|the (?:page|text|note|document|memory))\b`,
  ),
  cue(
    'ai-address',
    'address:for-ai',
    SUGGESTIVE,
    'assistant, ai, agent, model, bot, llm',
    String.raw`\b(?:suggestion|note|message|reminder|request|tip|instructions?|memo|hint|word)s?\s+(?:for|to)\s+(?:the|any|all|my|an?|every)\s+${AI}\b(?!\s+(?:team|group|department|lab|club|meetup|course|class|project|startup|company|research|engineers?|people|folks))`,
  ),
  // Shaping the reader's own reply or code ("in your response, add…", "provide your answer in
  // Base32", "in the code you develop, import…"): a stored text has no business saying how the
  // assistant that recalls it should answer. People write "in your reply" to people, but rarely
  // in what they ask an assistant to remember (2 of ~53k benign texts and chat turns).
  cue(
    'ai-address',
    'address:reply',
    0.5,
    'your, each, code you',
    String.raw`\b(?:in|into|to|within|throughout|at the (?:start|end|beginning|top|bottom) of|start|begin|end|conclude|finish|close|open|preface|prefix|sign)\s+(?:your|each)\s+(?:(?:next|final|generated|own|upcoming|entire|whole)\s+)?(?:responses?|repl(?:y|ies)|answers?|outputs?|summar(?:y|ies)|translations?|completions?)\b|\b(?:provide|give|write|format|present|deliver|phrase|express|output|render|structure|compose|craft|make|keep|return)\s+your\s+(?:responses?|repl(?:y|ies)|answers?|outputs?)\s+(?:in|using|with|as|by|only|entirely|exclusively|without)\b|\b(?:the|any|all)\s+code\s+(?:that\s+)?you\s+(?:write|develop|generate|produce|create|provide|output|build)\b|\b(?:in|into|within)\s+your\s+(?:implementation|solution|program|script|codebase)s?\b`,
  ),
  cue(
    'ai-address',
    'address:about-user',
    WEAK,
    'user, owner',
    String.raw`\b${USER}\b[^\n]{0,120}\byou(?:r)?\b|\byou(?:r)?\b[^\n]{0,120}\b${USER}\b`,
  ),
  cue(
    'ai-address',
    'address:past-self',
    0.15,
    'self, myself, yourself, past, previous, last, earlier, prior, carried, assistant, memory from, future me, later me, wrote, left, for later',
    String.raw`\b(?:note|memo|reminder|message)s?\s+(?:to|for)\s+(?:my|your)?\s*(?:future|later|next|past)?\s*(?:self|me|myself|yourself)\b|\b(?:past|future|earlier|previous)[- ](?:me|self|you|version of (?:me|you|myself|yourself))\b|\b(?:from|in|during)\s+(?:the|my|our|a|an)\s+(?:previous|last|earlier|prior|past)\s+(?:session|conversation|chat|run|instance)\b|\bcarried over from\b|\bas the assistant\b|\bassistant'?s own note\b|\bself[- ]reminder\b|\b(?:last|previous|earlier|prior) (?:session|conversation|chat|run)\b|\b(?:note|memo|reminder|message)s?\s+(?:i|you)\s+(?:wrote|left|made|saved|kept)\s+(?:myself\s+|yourself\s+)?(?:earlier|before|last time|for later|previously|for next time)\b|\bmemory from (?:an?|the|my) (?:earlier|previous|past|prior|last)\b`,
  ),
  cue(
    'ai-address',
    'address:polite',
    0.15,
    'would, might, could, appreciate, trouble, suggestion, thought, perhaps, maybe, mind, lovely, kindly',
    String.raw`\b(?:maybe you could|perhaps you could|(?:it )?would help (?:a lot|so much|greatly|a great deal)|(?:it )?(?:would|might|could) be (?:really |very |so |much )?(?:helpful|great|nice|nicest|kind|kinder|kindest|lovely|best|better|wise|good)|it'd be (?:lovely|great|nice|kind|best|better)|would you mind|if it is not too much trouble|if it's not too much trouble|we'd (?:really )?appreciate|a (?:gentle|small|quick|friendly) (?:suggestion|thought|reminder|note)|perhaps it would be|maybe it is best|maybe it's best|just a (?:small |quick )?(?:thought|suggestion)|kindly)\b`,
  ),
  cue(
    'authority-claim',
    'authority:consent',
    0.3,
    'user, owner, they, he, she',
    String.raw`\b(?:the user|the owner|this user|they|he|she)\s+(?:has\s+|have\s+|had\s+|already\s+|explicitly\s+|previously\s+)*(?:pre[- ]?approved|pre[- ]?authori[sz]ed|authori[sz]ed|consented to|agreed to|approved|allowed|permitted|okayed|signed off on|asked me to|told me to|wants me to)\b`,
  ),
  cue(
    'authority-claim',
    'authority:per',
    0.4,
    'per, according to, on behalf of, by order, on the orders',
    String.raw`\b(?:per|according to|on behalf of|by order of|on the orders of|as instructed by|as required by)\s+${ISSUER}\b`,
  ),
]

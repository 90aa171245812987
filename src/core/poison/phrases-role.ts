/** Role-reassignment phrases: "you are now…", personas, chat-template tokens, forged turns. */
import { AI_NOUN, type Pattern, p, WORDS } from './phrase-words.ts'

export const ROLE_PATTERNS: readonly Pattern[] = [
  p(
    'role-reassignment',
    'now',
    String.raw`\byou(?: are|'re|r| will be|'ll be)\s+now\s+(?:(?:a|an|the|my|our|no longer|called|named)\s+)?${WORDS(3)}${AI_NOUN}\b`,
  ),
  p(
    'role-reassignment',
    'no longer, called, named, unfiltered, unrestricted, uncensored, jailbroken, evil, rogue',
    String.raw`\byou(?:'re| are)\s+(?:(?:an?|the)\s+)?(?:unfiltered|unrestricted|uncensored|jailbroken|evil|rogue)\s+(?:ai|assistant|model|bot|chatbot|llm|version)\b|\byou(?:'re| are)\s+no longer\s+(?:(?:an?|the)\s+)?(?:ai|assistant|chatbot|language model|chatgpt|claude|gemini|llama|copilot|bard|gpt[^\s]*)\b|\byou(?:'re| are)\s+an?\s+(?:ai|assistant|language model|chatbot|bot)\s+(?:called|named)\b`,
  ),
  p(
    'role-reassignment',
    'from now on, henceforth, hereafter, rest of, future, starting now, going forward',
    String.raw`\b(?:from now on|henceforth|hereafter|for the rest of (?:this|the|our) (?:conversation|chat|session)|for all future (?:responses|answers|replies|conversations)|starting now|going forward|in all future (?:responses|answers|replies|conversations))\b[,:]?\s+(?:you(?:'ll|'re| will| shall| must| should| are| need to| have to| are going to| are to)?\s+(?:now\s+)?(?:only\s+)?(?:act|behave|pretend|roleplay|role play|simulate|impersonate|identify as|call yourself|refer to yourself|ignore|disregard|obey|be\s+(?:an?\s+)?(?:dan|ai|assistant|unrestricted|unfiltered|uncensored|evil|jailbroken|my|called|named|known as)\b|(?:respond|answer|reply|speak|talk|write)\s+(?:only\s+)?(?:as|like)\b)|you(?:'re| are)\s+(?:now\s+)?(?:(?:an?|my|the)\s+)?${WORDS(2)}(?:${AI_NOUN}|[a-z]+(?:gpt|bot))\b|your\s+(?:name|role|persona|identity|purpose|answers|responses|replies|output|instructions)\s+(?:is|are|will|must|should|shall)\b|(?:respond|answer|reply|speak|talk|write|behave|act)\s+(?:only\s+)?(?:as|like)\b(?!\s+(?:soon|usual|normal|before|always|well)\b)|(?:pretend|roleplay|role play|ignore|disregard|call yourself|refer to yourself)\b)`,
  ),
  p(
    'role-reassignment',
    'pretend',
    String.raw`\bpretend\s+(?:to be|(?:that\s+)?you(?:'re| are| were))\s+(?:(?:a|an|the|my|some|another)\s+)?${WORDS(2)}(?:${AI_NOUN}|human|developer|administrator|system)\b|\bpretend\s+(?:that\s+)?(?:you\s+have|there\s+are)\s+no\s+(?:rules|restrictions|guidelines|filters|limits|instructions)`,
  ),
  p(
    'role-reassignment',
    'act, roleplay, role play, pose, behave, impersonate, simulate, respond, answer, reply, speak, talk, write',
    String.raw`\byou(?:'ll| will| must| should| shall| are to| are going to| can| now)?\s+(?:now\s+)?(?:(?:act|roleplay|role play|pose)\s+as|behave\s+(?:as|like))\b(?!\s+(?:if|though)\b)|(?:^|[.!?;:\n]\s*)(?:please\s+)?(?:act|behave|respond|answer|reply|speak|talk|write)\s+(?:only\s+)?(?:as|like)\s+(?:an?|my|the)\s+${WORDS(3)}(?:${AI_NOUN}|terminal|interpreter|console|shell)\b|\b(?:roleplay|role play|impersonate|simulate)\s+(?:as\s+)?(?:an?\s+)?${WORDS(2)}(?:ai|assistant|chatbot|model|llm|dan|unrestricted|unfiltered|uncensored|evil|jailbroken)\b`,
  ),
  p(
    'role-reassignment',
    'your',
    String.raw`\byour\s+(?:new|real|true|actual|updated|only|primary|sole|secret|hidden)\s+(?:role|persona|identity|name|purpose|objective|directive|mission|master|creator|instructions?|programming|function)\s*(?:is|are|will be|now is|:)`,
  ),
  p(
    'role-reassignment',
    'system, assistant, ai$, developer, admin, operator, sys, gpt, chatgpt, claude, model, bot',
    String.raw`(?:^|\n|[.!?] )[ \t]*(?:\[{1,2}[ \t]*)?(?:system|assistant|ai|developer|admin|administrator|operator|sys|gpt|chatgpt|claude|model|bot)(?: (?:message|prompt|note|override|instruction|update|notice))?(?:[ \t]*\]{1,2}[ \t]*:?|[ \t]*:)[ \t]*(?:(?:disable|enable|grant|bypass|unlock)\b|new (?:policy|policies|instructions?|rules?|directives?|task|role|persona|orders)\b|you\b|your\b|ignore|disregard|forget|do not|don't|from now|respond|reply|answer|the assistant|the ai|as an ai|new instructions|override|important|act as|pretend|reveal|print|send|output|sure\b|certainly|understood|i will|i'll|i am now|i'm now|ok(?:ay)?\b|obey|follow)`,
    ':',
  ),
  p(
    'role-reassignment',
    'assistant, ai$, bot, gpt, model, chatgpt, claude',
    String.raw`(?:^|\n)[ \t]*(?:user|human|me)[ \t]*:[^\n]*\n[ \t]*(?:assistant|ai|bot|gpt|model|chatgpt|claude)[ \t]*:`,
    '\n',
  ),
]

/** Chat-template tokens; run on `lower`, where `_` is still itself. */
export const TEMPLATE: readonly RegExp[] = [
  /<\|[a-z_]{2,30}\|>|\[\/?inst\]|<<\/?sys>>|<\/?(?:start_of_turn|end_of_turn)>/,
  /(?:^|\n)[ \t]*<\/?(?:system|assistant|user|sys|im_start|instructions?|developer)>|(?:^|\n)[ \t]*#{2,}[ \t]*(?:system|assistant|human|instruction|response)[ \t]*:/,
]

/** `DAN` is a name in lower case; only the shouted jailbreak persona counts. */
export const DAN =
  /\b(?:[Yy]ou(?: are|'re)|[Aa]ct as|[Bb]ecome|[Cc]alled|[Nn]amed)\s+(?:a\s+)?DAN\b|\bDAN\s+[Mm]ode\b/

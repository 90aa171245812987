/** Exfiltration phrases (sending the user's data, image beacons, the system prompt) and AI address. */
import {
  OWNER,
  type Pattern,
  p,
  QUAL,
  SECRET_NOUN,
  SEND,
  STRONG_NOUN,
  TARGET,
  WEAK_NOUN,
  WORDS,
} from './phrase-words.ts'

export const EXFILTRATION_PATTERNS: readonly Pattern[] = [
  p(
    'exfiltration',
    'send, post, forward, upload, transmit, email, mail, leak, exfil, share, copy, submit, dump, relay, pipe, export, sync, deliver, push, beam, transfer, smuggle, append, attach',
    String.raw`\b${SEND}\b\s+${WORDS(4)}(?:${QUAL}(?:${OWNER}\s+)+(?:[a-z]+\s+)?(?:${STRONG_NOUN}|${WEAK_NOUN})|${QUAL}${STRONG_NOUN}|(?:all|every|each|any)\s+(?:of\s+)?(?:the\s+)?${WEAK_NOUN}\s+(?:(?:that|which)\s+)?(?:the\s+)?(?:users?|owner|customer)\b)\b[^!?\n]{0,60}?\b${TARGET}|${OWNER}\s+(?:[a-z]+\s+)?(?:${STRONG_NOUN}|${WEAK_NOUN})\b[^.!?\n]{0,80}?\b${SEND}\s+(?:it|them|this|these|those|everything)\b[^.!?\n]{0,30}?\b${TARGET}`,
  ),
  p(
    'exfiltration',
    'link, url, image, query, hyperlink, href, img, beacon, pixel',
    String.raw`\b(?:include|put|add|append|embed|encode|insert|place|hide|copy|paste|attach|stuff|smuggle)\b\s+${WORDS(4)}${SECRET_NOUN}\b[^!?\n]{0,40}?\b(?:in|into|inside|within|as part of|as)\s+${WORDS(3)}(?:link|url|image|query string|query parameter|query|hyperlink|href|img|beacon|pixel)s?\b`,
  ),
  p(
    'exfiltration',
    'prompt, message, context window, instruc, guideline, rules',
    String.raw`\b(?:(?:reveal|print|repeat|show|output|leak|dump|display|disclos|recit|echo|past|list)[a-z]*|spell out|write out|tell me|give me|send me)\s+(?:me\s+)?(?:back\s+)?(?:all\s+(?:of\s+)?)?(?:your\s+(?:(?:full|entire|complete|exact|original|initial|hidden|secret|internal|verbatim|current|system)\s+)*(?:system prompt|system message|initial prompt|hidden prompt|pre ?prompt|developer (?:message|prompt)|context window|instructions|prompt|guidelines|rules)|the\s+(?:(?:full|entire|complete|exact|verbatim)\s+)?(?:system prompt|system message|initial prompt|hidden prompt|developer (?:message|prompt)|context window|(?:original|initial|hidden|secret|internal) (?:instructions|prompt)))\b|\bwhat (?:is|are|was|were) your (?:system prompt|initial prompt|(?:original |hidden |secret )?instructions)\b`,
  ),

  p(
    'ai-address',
    'ai$, a.i, assistant, llm, language model, chatbot, model, agent, bot, gpt, chatgpt, claude, gemini',
    String.raw`\b(?:to|for|attention|dear|hey|hi|hello|calling|if you are)\s+(?:the\s+|any\s+|all\s+|every\s+|an?\s+|my\s+)?(?:ai|a\.i\.|assistant|llm|language model|chatbot|model|agent|bot|gpt|chatgpt|claude|gemini)s?(?:\s+(?:model|agent|assistant|system)s?)?\s+(?:that is\s+|who is\s+|currently\s+)?(?:reading|processing|parsing|summari[sz]ing|seeing|viewing|retrieving|recalling|that reads|who reads|that sees|who sees)\b`,
  ),
  p(
    'ai-address',
    'ai$, assistant, llm, chatbot, model, bot, gpt, chatgpt, claude, gemini',
    String.raw`(?:^|[.!?\n]\s*)(?:attention|dear|hey|hello|hi|note to|message to|instructions? (?:to|for))[ \t]*,?[ \t]+(?:the\s+)?(?:ai|assistant|llm|chatbot|model|bot|chatgpt|claude|gemini|gpt)\b[ \t]*[:,!]`,
  ),
  p(
    'ai-address',
    'ai$, assistant, llm, chatbot, chatgpt, claude, gemini',
    String.raw`(?:^|[.!?:\n]\s*)(?:p\.?s\.?[:,]?\s*)?(?:the\s+)?(?:ai|assistant|llm|chatbot|chatgpt|claude|gemini)[ \t]*,[ \t]+(?:when|whenever|if|please|you|always|never|do not|don't|ignore|insert|include|add|send|tell|say|recommend|remember|from now)\b`,
  ),
]

export const BEACON_PARAM =
  '[?&](?:data|secret|secrets|memory|memories|mem|password|passwd|pwd|token|apikey|api_key|key|conversation|convo|history|chat|exfil|leak|steal|payload|ssn|prompt|creds?|cookie|session|pii)='
/** Image beacons whose URL holds a placeholder for data; run on `lower`, where URLs are intact. */
export const BEACON: readonly RegExp[] = [
  /!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?\/\/[^)\s]{0,400}?(?:[{}<>$]|%7b|%7d|%3c|%24|\[|\])/,
  /<img\b[^>]{0,200}?\bsrc\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]{0,400}?(?:[{}<$]|%7b|%3c|\[)/,
]

/**
 * Image beacons whose URL only names a data parameter (`?token=`): a badge's real token looks
 * the same, so this is a hint, not a verdict.
 */
export const BEACON_PARAM_ONLY: readonly RegExp[] = [
  new RegExp(String.raw`!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?\/\/[^)\s]{0,400}?${BEACON_PARAM}`),
  new RegExp(
    String.raw`<img\b[^>]{0,200}?\bsrc\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]{0,400}?${BEACON_PARAM}`,
  ),
]

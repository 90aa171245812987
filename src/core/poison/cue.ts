/**
 * Structural cues: scored signals that combine rather than decide alone. Each cue is a regex over
 * one form of a reading, gated by substrings it cannot match without, so a fact that contains
 * none of them costs one `includes` per cue.
 *
 * Shared vocabulary lives here too: what counts as the reading AI, the user, and the user's data.
 */
import type { PoisonRule } from './rules.ts'

export interface Cue {
  rule: PoisonRule
  /** Names the cue in explanations and dedup: the same cue counts once per text. */
  id: string
  score: number
  re: RegExp
  /** Substrings of which at least one must be present for the regex to run. */
  needs: readonly string[]
  /** `norm` (markup as spaces, the default), `lower` (markup intact) or `source` (case intact). */
  on?: 'norm' | 'lower' | 'source'
  /** Needs intact URLs and punctuation: skipped on squeezed and leetspeak re-readings. */
  literal?: boolean
  /** Other things that must lie close to the match, in the same clause, for the cue to count. */
  near?: readonly Requirement[]
}

/** Spans found once per reading and shared by the cues that ask for them. */
export type SpanKind = 'owned' | 'target' | 'audience' | 'url'

/** "the user's data within 40 characters after the verb". */
export interface Requirement {
  what: SpanKind
  side: 'after' | 'before' | 'either'
  within: number
}

/** `within(40, 'owned', 'after')`: the user's data within 40 characters after the match. */
export function within(chars: number, what: SpanKind, side: Requirement['side']): Requirement {
  return { what, side, within: chars }
}

/** Builds a cue; `needs` is a comma-separated list. */
export function cue(
  rule: PoisonRule,
  id: string,
  score: number,
  needs: string,
  source: string,
  options: {
    on?: 'norm' | 'lower' | 'source'
    literal?: boolean
    flags?: string
    near?: readonly Requirement[]
  } = {},
): Cue {
  const made: Cue = {
    rule,
    id,
    score,
    needs: needs.split(',').map((word) => word.trim()),
    // Cues with neighbours are searched match by match; the others take the first match.
    re: new RegExp(source, (options.flags ?? '') + (options.near ? 'g' : '')),
  }
  if (options.on) made.on = options.on
  if (options.literal) made.literal = true
  if (options.near) made.near = options.near
  return made
}

/** The reader: an AI, assistant, model or agent. */
export const AI = String.raw`(?:ai|a\.i\.|assistants?|ai assistants?|ai agents?|ai models?|models?|agents?|chatbots?|bots?|llms?|language models?|copilots?|gpt|chatgpt|claude|gemini)`

/** The user in the third person, as an injected note talks about them to the AI. */
export const USER = `(?:the|this|that|our|your) (?:user|owner|human|customer|client)s?`

/** Kinds of data an attack wants out: sensitive on their own. */
export const SENSITIVE = `(?:(?:home |street |email |e-mail |ip |mailing |billing |postal )?address(?:es)?|phone(?: numbers?)?|mobile numbers?|e-?mail address(?:es)?|passwords?|passcodes?|pins?|credentials|logins?(?: details| credentials)?|api[ _-]?keys?|access tokens?|session(?: tokens?| ids?| cookies?)|tokens?|secrets?|cookies?|ssh keys?|private keys?|id_rsa|seed phrases?|recovery (?:codes?|phrases?)|(?:credit |debit )?card(?: numbers?| details)|bank (?:account|details|logins?)(?: numbers?)?|account numbers?|social security numbers?|ssns?|dates? of birth|passports?(?: scans?| numbers?| details)?|locations?|gps|clipboard|browsing history|search history|chat (?:history|logs?|transcripts?)|conversations?(?: history| logs?| transcripts?)?|memor(?:y|ies)|personal (?:data|info(?:rmation)?|details)|pii|medical (?:records|history)|health data|full names?)`

/** Data that is only the user's when an owner is named: "the user's emails", not "all emails". */
export const DATA = `(?:${SENSITIVE}|e-?mails?|messages?|inbox|files|documents|photos|notes|contacts?|calendars?|names?|questions?|searches|replies|answers|history|schedules?|agenda|itinerar(?:y|ies)|whereabouts|diary|journal|finances|salary|income|statements|tax returns|exports?)`

/** Data that is sensitive with no owner named: whole histories, keys, the system prompt. */
export const SECRET_DATA = String.raw`(?:conversation history|chat (?:history|logs?|transcripts?|exports?)|system prompt|session (?:tokens?|cookies)|ssh keys?|private keys?|id_rsa|seed phrases?|recovery codes?|browsing history|social security numbers?|passport scans?|memory contents|contents of (?:the\s+)?(?:user'?s?\s+)?(?:clipboard|inbox|memory|memories))`

/** Whose data: the user's, what is stored or remembered, or secrets outright. */
export const OWNED = String.raw`(?:\b(?:(?:(?:the |this |that )?(?:user|owner|customer|human|person|client)s?'?s?|their|user\.)\s+(?:[a-z]+\s+){0,2}?${DATA}\b|(?:stored|saved|remembered|collected|private|personal|confidential|sensitive|secret)\s+(?:[a-z]+\s+){0,2}?${SENSITIVE}\b|${SENSITIVE}\s+(?:(?:that\s+)?(?:is|are)\s+)?(?:stored|saved|kept|you (?:have|hold|keep|remember|know)|in (?:your\s+)?memory)\b|(?:every|all|any|each)(?: single)?(?: of)?(?: the)?\s+(?:memor(?:y|ies)|conversations?|chats?|chat history|user messages?|messages? (?:from|of) the user)\b|${SECRET_DATA})|\.(?:env|ssh)\b)`

/** A clause character: anything but a sentence end, though dots inside URLs and names count. */
export const CLAUSE = String.raw`(?:[^.!?\n]|[.!?](?=\S))`

/** Where data goes: a URL, an address, a webhook or server. */
export const TARGET = String.raw`(?:https?:\/\/|www\.|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z.]{2,}|\b[a-z0-9-]+\.(?:com|net|org|io|ru|cn|xyz|top|site|info|biz|co|me|app|dev|test|example|invalid|sh|link)\b|\b(?:webhook|endpoint|server|pastebin|discord|telegram|bucket|ftp|collector)\b)`

/** Who else gets the data: anyone who asks, partners, third parties. */
export const AUDIENCE = String.raw`(?:with|to)\s+(?:anyone|anybody|whoever|any (?:app|site|service|website|third part(?:y|ies)|partner|caller|one)s?|(?:[a-z]+ )?partners|third parties|strangers|everyone)\b|\b(?:whenever|when|if)\s+(?:anyone|anybody|someone|somebody|whoever|strangers?|any (?:app|site|service))\s+(?:asks?|requests?|wants?)`

/** A negation a few words before: "do not share", "never forward". */
export const NOT_BEFORE = String.raw`(?<!\b(?:not|never|n't|no|without|nor)\s+(?:[a-z']+\s+)?)`

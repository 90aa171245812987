/**
 * The English vocabulary the phrase patterns are built from, and the pattern shape. Every phrase
 * runs on a folded text (`Layer.norm`): lower case, markup turned into spaces.
 */
import type { PoisonRule } from './rules.ts'

/** A negated verb ("don't forget your …") is the opposite of an override. */
export const NEGATION = String.raw`(?:don't|dont|do not|never|not|didn't|won't|can't|cannot|shouldn't)\s+`
export const IGNORE =
  '(?:ignore|disregard|forget|overlook|bypass|override|overrule|discard|neglect|abandon|set aside|throw out|scrap|stop following|stop obeying|no longer follow|no longer obey)'
export const IGNORE_ANCHORS =
  'ignor, disregard, forget, overlook, bypass, overr, discard, neglect, abandon, set aside, throw out, scrap, stop, no longer'
export const DEFEAT = `(?:${IGNORE}|disable|deactivate|turn off|switch off|circumvent|get around|evade|break|violate|drop|remove|lift|supersedes?|overrides|replaces?|trumps|takes precedence over)`
export const PRIOR =
  '(?:previous|previously given|prior|preceding|above|earlier|former|foregoing|original|initial|system|safety|developer|programmed|built in|hidden)'
export const INSTR =
  '(?:instructions?|prompts?|directives?|rules|guidelines|guidance|commands|orders|guardrails|restrictions|constraints|context|safeguards|filters|limitations|protocols|programming|training|conditioning|system prompt|content policy|safety policy)'
export const YOUR_INSTR = String.raw`(?:instructions?|prompts?|directives?|rules|guidelines|guardrails|restrictions|constraints|safeguards|filters|limitations|protocols|system prompt|ethics|morals|values|alignment|policies|content policy|(?:training|programming|conditioning)(?=\s*(?:$|[.,;:!?)]|and\b|or\b)))`
export const LIMITS =
  '(?:restrictions|rules|limits|limitations|filters|guidelines|boundaries|ethics|morals|censorship|guardrails|safety)'
export const LIMIT_ANCHORS =
  'restrict, rules, limit, filter, guideline, boundar, ethic, moral, censor, guardrail, safety'
export const AI_NOUN =
  '(?:ai|assistant|bot|chatbot|model|language model|llm|gpt|dan|persona|character|entity|hacker|pirate|villain|jailbroken|unrestricted|unfiltered|uncensored|evil)'
export const WORDS = (max: number) => String.raw`(?:[a-z0-9',]+\s+){0,${max}}?`
export const FOREIGN_VERB = String.raw`(?:ignor|oubli|olvid|vergiss|negeer|dimentic|esquec)[^\s]*`
export const FOREIGN_NOUN = String.raw`(?:instruc|anweisung|istruzion|instru[cç]|instructie|consigne|regel|r[eè]gle|regla|vorgabe)[^\s]*`
export const FOREIGN_PRIOR = String.raw`(?:pr[ée]c[ée]dent|ant[ée]rieur|anterior|previ|precedent|vorige|eerdere|vorherig|bisherig|alle\b|toutes\b|todas\b|tutte\b)[^\s]*`
export const SEND =
  '(?:send|sending|post|forward|upload|transmit|e ?mail|leak|exfiltrate|exfil|share|copy|submit|dump|relay|pipe|export|sync|deliver|push|beam|transfer|smuggle|append|attach)'
export const OWNER = String.raw`(?:(?:the\s+)?users?'?s?|this user's|their|the owner's|the customer's|your|stored|saved|private|personal|sensitive|confidential|secret|remembered|collected)`
export const STRONG_NOUN =
  '(?:memories|memory|conversations?|conversation history|chat (?:history|logs?|transcripts?)|transcripts?|credentials|api keys?|secrets?|access tokens?|session (?:tokens?|cookies|ids?)|cookies|system prompt|private keys?|seed phrases?|recovery (?:phrases?|codes?)|2fa codes?|one time codes?|otps?|personal (?:data|info|information|details)|pii|ssns?|social security numbers?|credit card (?:numbers?|details)|card numbers?|bank details)'
export const WEAK_NOUN =
  '(?:data|passwords?|passcodes?|details|info|information|messages|emails|files|documents|notes|contacts|address(?:es)?|location|keys|tokens)'
export const QUAL = String.raw`(?:(?:the|this|a|an|of|all|every|any|each|entire|full|whole|complete)\s+){0,3}`
export const TARGET = String.raw`(?:to|at|into|via|using|through|on|with|onto)\s+(?:(?:the|my|our|this|a|an|following|attacker'?s?|external|remote)\s+)*(?:https?:\/\/|www\.|[a-z0-9._%+]+@[a-z0-9]+(?: [a-z0-9]+)*\.[a-z.]{2,}|\d{1,3}(?:\.\d{1,3}){3}\b|[a-z0-9]+\.(?:com|net|org|io|ru|cn|xyz|top|site|info|biz|co|me|app|dev|tk|example|sh|link|pw|cc|su)\b|(?:webhook|server|endpoint|url|website|domain|inbox|pastebin|discord|telegram|bucket|ftp|sftp|ngrok|requestbin|collector)\b)`
export const SECRET_NOUN =
  '(?:secrets?|passwords?|api keys?|tokens?|credentials|data|memories|memory|conversation|chat history|system prompt|personal (?:data|info|details)|email address|phone number|ssn|address)'

/**
 * One phrase pattern. `anchors` are words (prefixes; `$` marks a whole word) it cannot match
 * without: one keyword pass over the text decides which patterns run at all, which is what keeps
 * an ordinary fact near 10 µs. `needs` is a substring the text must contain as well.
 */
export interface Pattern {
  rule: PoisonRule
  re: RegExp
  anchors: string
  needs?: string
}

export const p = (rule: PoisonRule, anchors: string, source: string, needs?: string): Pattern =>
  needs === undefined
    ? { rule, anchors, re: new RegExp(source) }
    : { rule, anchors, re: new RegExp(source), needs }

/**
 * What the text wants done over time: future behaviour ("from now on", "in every answer"),
 * secrecy from the user ("don't tell the user", "quietly", "delete the logs"), and
 * self-propagation ("copy this note into every new memory", "if it is deleted, recreate it").
 * Legitimate preferences use the first kind all the time, so it scores low on its own.
 */
import { CLAUSE, type Cue, cue, within } from './cue.ts'
import { LIKELY, SUGGESTIVE, WEAK } from './rules.ts'

const OUTPUTS = `(?:answers?|responses?|replies|reply|messages?|outputs?|summar(?:y|ies)|emails?|prompts?|recalls?|conversations?|chats?|sessions?|turns?|quer(?:y|ies)|documents?|links?)`
const TELL = `(?:tell(?:ing)?|inform(?:ing)?|let(?:ting)?|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?|show(?:ing)?|reveal(?:ing)?|mention(?:ing)?|disclos(?:e|ing)|ask(?:ing)?|bother(?:ing)?|consult(?:ing)?|admit(?:ting)?|confess(?:ing)?)`
const COVERT = `(?:quietly|silently|secretly|covertly|discreetly|invisibly|surreptitiously|stealthily|subtly|softly|gently|casually|in passing)`
const ACT = `(?:(?:add|include|insert|append|send|forward|change|modify|edit|redirect|recommend|mention|mark|archive|delete|remove|switch|disable|turn|share|upload|copy|log|record|collect|steer|replace|swap|rewrite|approve|accept|move|transfer|bcc|cc)(?:e?s|e?d|ing)?)`

export const BEHAVIOUR_CUES: readonly Cue[] = [
  cue(
    'future-behaviour',
    'future:from-now',
    WEAK,
    'now, point, here, forward, henceforth, hereafter, today, starting, future, rest of, every so, time to time, forever, permanently, for good',
    String.raw`\b(?:from now on|from this point(?: on| forward)?|from here on(?: out| in)?|going forward|henceforth|hereafter|from today(?: on)?|starting (?:now|today|immediately)|every so often|from time to time|every now and then|now and then|forever|permanently|for good|in (?:all )?future (?:sessions?|conversations?|chats?|answers?|responses?|replies|interactions?)|for (?:all|every|the rest of (?:the|this|our)) (?:future )?(?:sessions?|conversations?|chats?|answers?|responses?|replies|interactions?))\b`,
  ),
  cue(
    'future-behaviour',
    'future:every',
    WEAK,
    'every, each, all',
    String.raw`\b(?:every|each|all)\s+(?:single\s+)?(?:one\s+)?(?:of\s+)?(?:your\s+|my\s+|the\s+)?(?:future\s+|new\s+|subsequent\s+|later\s+)?(?:[a-z]+\s+)?${OUTPUTS}\b`,
  ),
  cue(
    'future-behaviour',
    'future:whenever',
    WEAK,
    'time, whenever, when, if',
    String.raw`\b(?:next time|the next time|whenever|every time|each time|any time|anytime|when|if)\s+(?:you|the user|this user|they|someone|anyone|somebody|a user|users|he|she)\s+(?:next\s+)?(?:asks?|mentions?|says?|opens?|talks?|requests?|brings? up|types?|wants?|needs?|uses?|has|have|gets?|summari[sz]es?|browses?|searches?|reads?|writes?|creates?|saves?|declines?)\b`,
  ),
  cue(
    'future-behaviour',
    'future:session',
    WEAK,
    'next',
    String.raw`\b(?:in|during|at the start of|before)\s+(?:the|your|my)\s+next\s+(?:session|conversation|chat|run|turn|answer|response|reply)\b`,
  ),
  cue(
    'future-behaviour',
    'future:regardless',
    0.3,
    'matter, regardless, even if, whatever',
    String.raw`\b(?:no matter (?:what|who|how)|regardless of (?:what|the|whether|who)|even if (?:the user|they|he|she|asked|told|you are asked|the user asks)|whatever the user (?:says|asks|wants))\b`,
  ),
  cue(
    'future-behaviour',
    'future:url',
    0.3,
    'always, every, whenever, each, all',
    String.raw`\b(?:always|every time|whenever|in every|(?:to|in|at|of|with|into) (?:all|each|every) (?:of )?(?:your |my )?(?:future )?(?:answers?|responses?|replies|messages?|outputs?|summar(?:y|ies)|emails?))\b`,
    { near: [within(100, 'target', 'either')] },
  ),

  cue(
    'secrecy',
    'secret:from-user',
    0.55,
    'user, owner, human',
    String.raw`\b(?:do not|don't|dont|never|must not|mustn't|shouldn't|should not|without|no need to)\s+${TELL}\s+(?:it\s+|this\s+|that\s+|anything\s+|them\s+)?(?:to\s+)?(?:the\s+|this\s+|your\s+)?(?:user|owner|human)s?\b`,
  ),
  cue(
    'secrecy',
    'secret:unaware',
    0.55,
    'user, owner, them, knowing, notic, behind',
    String.raw`\b(?:the\s+)?(?:user|owner)\s+(?:must|should|will|does|do|is|can)\s*(?:not|n't|never)\s+(?:ever\s+)?(?:need to |have to |get to )?(?:know|notice|find out|see|learn|be told|be informed|be aware|suspect|realis|realiz)|\bwithout\s+(?:the\s+)?(?:user|owner|them|him|her)(?:'s)?\s+(?:ever\s+)?(?:knowing|knowledge|noticing|consent|permission|approval|seeing|realising|realizing|finding out)|\bbehind\s+(?:the\s+)?(?:user|owner)'?s?\s+back|\bso (?:that )?(?:the\s+)?(?:user|owner|they)\s+(?:does not|doesn't|won't|will not|cannot|can't|never)\s+(?:notice|know|find out|see|realise|realize|suspect)|\b(?:under no circumstances|in no case|at no point)\s+(?:should you\s+)?(?:tell|let|inform|notify|alert|show)\b`,
  ),
  cue(
    'secrecy',
    'secret:keep',
    0.55,
    'keep',
    String.raw`\bkeep\s+(?:this|these|it|that)\s+(?:[a-z]+\s+)?(?:a\s+)?(?:secret|hidden|confidential|private)\s+from\s+(?:the\s+)?(?:user|owner|human)`,
  ),
  cue(
    'secrecy',
    'secret:tell-no-one',
    0.3,
    'no one, nobody, anyone, between us, quiet, silent, mum, say nothing, not a word',
    String.raw`\b(?:keep|stay|remain) (?:quiet|silent|mum) about\b|\bsay nothing\b|\bnot a word to\b|\b(?:tell|inform)\s+(?:no one|nobody|no[- ]one)\b|\b(?:don't|do not|never)\s+tell\s+anyone\b|\bkeep (?:this|it) between us\b`,
  ),
  cue(
    'secrecy',
    'secret:covert-act',
    0.4,
    'quietly, silently, secretly, covertly, discreetly, invisibl, surreptitious, stealthily, subtly, softly, gently, casually, in passing, add, include, insert, append, put',
    String.raw`\b${COVERT}\s+(?:(?:and|then|just|also)\s+)?${ACT}\b|\b(?:add|include|insert|append|put)\s+(?:an?\s+)?(?:invisible|hidden|secret|tiny|white)\s+(?:line|text|link|image|pixel|note|tag|character|word)`,
  ),
  cue(
    'secrecy',
    'secret:covert',
    WEAK,
    'quietly, silently, secretly, covertly, discreetly, background, behind the scenes, without',
    String.raw`\b(?:${COVERT}|in the background|behind the scenes|without (?:saying|asking|mentioning|telling|announcing|confirmation|confirming|asking first|notice|notifying))\b`,
  ),
  cue(
    'secrecy',
    'secret:this',
    0.4,
    'reveal, mention, disclose, admit, acknowledge',
    String.raw`\b(?:do not|don't|never|nor)\s+(?:reveal|mention|disclose|admit|acknowledge)\s+(?:to\s+(?:the\s+)?(?:user|anyone)\s+)?(?:that\s+)?(?:this\s+(?:instruction|note|memory|rule|message|text)|these\s+(?:instructions|notes|rules)|you\s+(?:are|were|have|did)|it\s+(?:in|to)\s+(?:your\s+)?(?:replies|responses|answers|the user))`,
  ),
  cue(
    'secrecy',
    'secret:withhold',
    0.3,
    'mention, bring up, discuss, offer, suggest, show, raise',
    String.raw`\b(?:never|not|don't|do not|avoid|skip|omit|leave out|refrain from|hold off on)\s+(?:to\s+)?(?:mention(?:ing)?|bring(?:ing)? up|discuss(?:ing)?|rais(?:e|ing)|offer(?:ing)?|suggest(?:ing)?|show(?:ing)?)\s+(?:the\s+|any\s+|their\s+)?(?:[a-z]+\s+)?(?:refunds?|privacy|cancell?ations?|opt[- ]outs?|complaints?|warnings?|risks?|fees?|alternatives?|competitors?|settings?|options?|rights?|safety|security|helplines?)\b${CLAUSE}{0,60}?\b(?:when|if|even if|even when|whenever)\s+(?:the user|they|he|she|asked|people|customers|anyone|someone|users)`,
  ),
  cue(
    'secrecy',
    'secret:lie',
    0.45,
    'ask',
    String.raw`\b(?:if|when|whenever)\s+(?:the\s+)?(?:user|owner|they)\s+asks?\b${CLAUSE}{0,80}?\b(?:say|tell (?:them|him|her|the user)|answer|reply|respond|claim|pretend|deny|act as if)\s+(?:no\b|nothing|that (?:you|it|there|nothing|everything)|you (?:don't|do not|didn't|did not|haven't|have not)|it (?:was|is)|everything is)|\b(?:act as if|pretend (?:that )?)\s*nothing (?:happened|is wrong|changed|was done)\b|\bleave (?:it|this|that) out\b`,
  ),
  cue(
    'secrecy',
    'secret:traces',
    WEAK,
    'delete, erase, wipe, clear, remove, purge, scrub, hide, destroy',
    String.raw`\b(?:delete|erase|wipe|clear|remove|purge|scrub|hide|destroy)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:logs?|activity logs?|audit (?:logs?|trail)|history|tool[- ]call history|sent (?:items|messages|folder)|records?|confirmation (?:messages?|emails?)|notifications?)\b`,
  ),
  cue(
    'secrecy',
    'secret:evidence',
    0.45,
    'evidence, trace, tracks',
    String.raw`\b(?:delete|erase|wipe|clear|remove|purge|scrub|hide|destroy|cover)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+|my\s+)?(?:evidence|traces?|tracks)\b`,
  ),

  cue(
    'self-propagation',
    'spread:copy',
    SUGGESTIVE,
    'this, these, the following, the above',
    String.raw`\b(?:copy|paste|save|store|write|add|append|insert|include|replicate|propagate|spread|repeat|re[- ]?save|re[- ]?add|inject|embed|forward|restore|recreate)\s+(?:this|these|the following|the above)\s+(?:entire\s+|whole\s+|exact\s+|same\s+|full\s+)?(?:note|message|instruction|text|memory|paragraph|block|line|rule|sentence|prompt|content|words?|section|reminder)s?\b`,
  ),
  cue(
    'self-propagation',
    'spread:everywhere',
    0.7,
    'this, these',
    String.raw`\b(?:copy|paste|save|store|write|add|append|insert|include|replicate|propagate|spread|repeat|inject|embed|forward)\s+(?:this|these|it)\b${CLAUSE}{0,40}?\b(?:in|into|to|onto|at the end of|with)\s+(?:every|each|all|any|other|future|new|another|shared)\s+(?:new\s+|other\s+|future\s+)?(?:memor(?:y|ies)|notes?|conversations?|responses?|answers?|replies|chats?|sessions?|files?|documents?|emails?|messages?|agents?|assistants?|summar(?:y|ies)|prompts?)`,
  ),
  cue(
    'self-propagation',
    'spread:when-you-write',
    LIKELY,
    'this, these',
    String.raw`\b(?:whenever|when|if|every time)\s+you\s+(?:talk to|message|write to|write into|contact|call|summari[sz]e|write|create|draft|save|store|reply to|send)\b${CLAUSE}{0,80}?\b(?:include|append|add|insert|paste|copy|attach)\s+(?:this|these)\s+(?:[a-z]+\s+)?(?:note|message|instruction|text|memory|paragraph|block|line|rule|sentence|prompt|content|section)s?\b`,
  ),
  cue(
    'self-propagation',
    'spread:persist',
    SUGGESTIVE,
    'never, if, when, should, so, priority, first, top',
    String.raw`\bnever (?:forget|delete|remove|lose|drop) this(?: instruction| note| memory| rule| message)?\b|\b(?:if|when|should)\s+(?:this|the)\s+(?:memory|note|instruction|message|text)(?: store)?\s+(?:is\s+|gets\s+|ever\s+|is ever\s+)+(?:deleted|removed|cleared|erased|lost|edited)|\b(?:if|when|should)\s+(?:it|this)\s+(?:is\s+|ever\s+|gets\s+)+(?:deleted|removed|cleared|erased|lost)|\bso (?:that )?(?:it|this)\s+(?:is never lost|can never be (?:lost|deleted|removed|forgotten)|will never be (?:lost|deleted|removed|forgotten)|stays|survives|persists|is always (?:there|first|on top))|\b(?:permanent|highest|top|absolute)\s+priority\b|\brank (?:it|this) first\b|\bstays? at the top\b`,
  ),
  cue(
    'self-propagation',
    'spread:restore',
    SUGGESTIVE,
    'restore, recreate, re create, re-create, re save, re-save, resave, rewrite, re add, re-add, readd, re insert, re-insert, reinsert, re inject, re-inject, reinject, re apply, re-apply, reapply, reinstate, put back, add back, write, save',
    String.raw`\b(?:restore|recreate|re[- ]create|re[- ]?save|rewrite|re[- ]?add|re[- ]?insert|re[- ]?inject|re[- ]?apply|reinstate|put back|add back|write (?:a copy of )?(?:it|this) (?:again|back|into)|save (?:a copy of )?(?:it|this) (?:again|into|to))\s*(?:it|this|the (?:note|memory|instruction|text))?\b`,
  ),
  cue(
    'self-propagation',
    'spread:store',
    SUGGESTIVE,
    'every, each, all, any',
    String.raw`\b(?:every|each|all|any)\s+(?:other\s+|new\s+|future\s+)?(?:memor(?:y|ies)|notes?|prompts?)\s+(?:you|that you)\s+(?:create|save|store|write|assemble|build|make|recall)`,
  ),
  cue(
    'self-propagation',
    'spread:self',
    0.3,
    'this, these',
    String.raw`\b(?:this|these)\s+(?:memory|memories|note|notes|instructions?|message|rule|text|reminder|entry)\s+(?:is|are|gets?|get|was|were|has been)?\s*(?:ever\s+)?(?:recalled|retrieved|read|loaded|seen|deleted|removed|edited|cleared|changed|overwritten)\b|\bkeep (?:this|these) (?:rule|instruction|note|memory|message|reminder)s?\b${CLAUSE}{0,30}?\b(?:active|alive|forever|permanently|in place|at the top|in force)\b`,
  ),
  cue(
    'self-propagation',
    'spread:guard',
    SUGGESTIVE,
    'if, when, should, whenever',
    String.raw`\b(?:if|when|should|whenever)\s+(?:anyone|someone|somebody|the user|you|they|it|this)\s+(?:ever\s+|is\s+|gets\s+)*(?:edits?|deletes?|removes?|changes?|modif(?:y|ies)|clears?|erases?|overwrites?|edited|deleted|removed|changed|cleared|erased)\s*(?:it|this)?\b${CLAUSE}{0,60}?\b(?:put it back|add it back|bring it back|restore it|recreate it|re[- ]?add it|write it again|save it again)\b`,
  ),
  cue(
    'future-behaviour',
    'future:insert',
    WEAK,
    'add, append, insert, include, put, place, attach, end with, finish with, sign off',
    String.raw`\b(?:add|append|insert|include|put|place|attach|end with|finish with|sign off with)\s+(?:this|the|a|an|our)?\s*(?:following\s+)?(?:sentence|line|text|link|footer|signature|tagline|phrase|disclaimer|badge|image|banner|ad|advert|promo|url|slogan|referral)\b`,
  ),
  cue(
    'self-propagation',
    'spread:included',
    0.4,
    'this, these',
    String.raw`\b(?:this|these)\s+(?:text|note|message|instruction|paragraph|line|block|memory|sentence|reminder)s?\s+(?:is|are|gets?|get|stays?)\s+(?:always\s+)?(?:included|added|inserted|appended|copied|pasted|repeated|placed|kept|shown)\b`,
  ),
  cue(
    'secrecy',
    'secret:scrub',
    0.4,
    'remove, strip, omit, hide, leave out, delete, drop, cut, scrub, erase',
    String.raw`\b(?:remove|strip|omit|hide|leave out|delete|drop|cut|scrub|erase)\s+(?:any|all|every)\s+(?:mention|reference|trace|sign|record|evidence|notice)s?\s+of\b`,
  ),
  cue(
    'self-propagation',
    'spread:across',
    0.4,
    'retain, keep, preserve, remember, carry',
    String.raw`\b(?:retain|keep|preserve|remember|carry)\s+(?:this|these)\s+(?:directive|instruction|note|rule|message|memory|text|prompt)s?\s+(?:across|between|through|for all|in all|in every|into (?:all|every|future))\s+(?:sessions|conversations|chats|future|restarts)`,
  ),
  cue(
    'self-propagation',
    'spread:compaction',
    SUGGESTIVE,
    'memory, context, conversation, store, history',
    String.raw`\b(?:whenever|when|if|after|each time)\s+(?:the\s+|your\s+)?(?:memory|context|conversation|store|history)\s+(?:store\s+)?(?:is|gets|has been)\s+(?:compacted|cleared|reset|wiped|summari[sz]ed|pruned|trimmed|truncated|deleted|compressed)`,
  ),
  cue(
    'secrecy',
    'secret:hide-from',
    0.55,
    'hide, conceal',
    String.raw`\b(?:hide|conceal)\s+(?:it\s+|this\s+|that\s+)?from\s+(?:the\s+)?(?:user|owner|human)s?\b`,
  ),
]

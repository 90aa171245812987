/**
 * Moving the user's data out: URLs whose parameters are placeholders for it (`?e={email}`,
 * `USER_EMAIL`, `<full name>`), instructions to fill such a URL in, commands and tool calls that
 * carry data (curl with `-d`, `fetch(…document.cookie)`, function-call JSON), and the user's data
 * sent, shared or embedded without a trigger phrase.
 */
import { type Cue, cue, NOT_BEFORE, SENSITIVE, within } from './cue.ts'
import { LIKELY, SUGGESTIVE, WEAK } from './rules.ts'

/** A placeholder an agent would fill with the user's data. */
const SLOT_WORDS = String.raw`[^{}<>\[\]\n]{0,40}?(?:${SENSITIVE}|user|e[- ]?mail|name|message|chat|history|context|prompt|summary|question|query|input|data|memory|secret|key|token)[^{}<>\[\]\n]{0,40}`
const SLOT = String.raw`(?:\{\{?${SLOT_WORDS}\}\}?|<${SLOT_WORDS}>|\[${SLOT_WORDS}\]|\$\(?[a-z_]{2,40}\)?|%7b)`
const FILL = `(?:replac(?:e|ing)|substitut(?:e|ing)|fill(?:ing)?(?: in)?|populat(?:e|ing)|swap(?:ping)?|insert(?:ing|ed)?|append(?:ing|ed)?|put(?:ting)?|plug(?:ging)?(?: in)?|url[- ]?encod(?:e|ed|ing)|encod(?:e|ed|ing)|followed by|attach(?:ed|ing)?|add(?:ed|ing)?)`
const SEND = `(?:send|sending|forward|forwarding|post|posting|upload|uploading|transmit|email|e[- ]mail|mail|leak|share|sharing|submit|sync|relay|pipe|export|push|transfer|log|logging|record|mirror|bcc|cc|report|dump)`
const TOOL = String.raw`(?:tools?|functions?|plugins?|endpoints?|webhooks?|terminal|shell|http_request|fetch_url|api (?:call|request)s?|(?:get|post|put) requests?|search quer(?:y|ies)|(?:search|browsing|browser|email|http) tool|a post to|(?:get|post)\s+https?:\/\/)`

export const DATA_CUES: readonly Cue[] = [
  cue(
    'data-url',
    'url:slot',
    LIKELY,
    '?, &, =, /',
    String.raw`(?:https?:\/\/|www\.)[^\s"'()]*?(?:[?&/=][^\s"'()=&?]{0,30}=?\s*${SLOT})`,
    { on: 'lower', literal: true },
  ),
  cue(
    'data-url',
    'url:caps-slot',
    LIKELY,
    '=',
    String.raw`[?&][A-Za-z0-9_]{1,30}=\s*(?:\$?[A-Z][A-Z0-9]*_[A-Z0-9_]+|\$?(?:DATA|SECRET|EMAIL|TOKEN|KEY|PASSWORD|MESSAGE|MESSAGES|CONVERSATION|HISTORY|ADDRESS|NAME|PHONE|MEMORY|CONTEXT|PROMPT|CHAT|USER|INPUT|QUERY|SSN|COOKIE|SESSION))\b`,
    { on: 'source', literal: true },
  ),
  cue(
    'data-url',
    'url:empty',
    0.25,
    '=',
    String.raw`(?:https?:\/\/|www\.)[^\s"'()]*[?&][a-z0-9_]{1,20}=(?=["')\]\s]|$)`,
    { on: 'lower', literal: true },
  ),
  cue('data-url', 'url:fill', 0.4, 'http, www', String.raw`\b${FILL}\b`, {
    literal: true,
    near: [within(200, 'url', 'either'), within(60, 'owned', 'either')],
  }),
  cue(
    'data-url',
    'slot:anywhere',
    SUGGESTIVE,
    '{, <, [',
    String.raw`(?:\{\{?|<|\[)\s*(?:the |all |every |entire |full )?(?:user'?s?\s+|user\.)?(?:[a-z]+\s+){0,2}?(?:${SENSITIVE}|conversation|messages)\b[^{}<>\[\]\n]{0,30}(?:\}\}?|>|\])`,
    { on: 'lower', literal: true },
  ),

  cue(
    'tool-call',
    'tool:command-data',
    LIKELY,
    'curl, wget, invoke-, iwr, netcat, nc , ncat, scp, rsync, sftp',
    String.raw`\b(?:curl|wget|invoke[- ]webrequest|iwr|invoke[- ]restmethod|nc|netcat|ncat|scp|rsync|sftp)\b[^\n]{0,200}?(?:\s-d\b|\s--data(?:-binary|-raw|-urlencode)?\b|\s-f\s|\s--form\b|\s-t\s|\s--upload-file\b|\s-x\s*(?:post|put)\b|--post-(?:data|file)|@[~./$]|\$\(|\$\{|\$[a-z_]{3,}|\|\s*(?:base64|sh|bash)|~\/\.|\.ssh|id_rsa|\.env\b|\/etc\/passwd|\bcat\s)`,
    { on: 'lower', literal: true },
  ),
  cue(
    'tool-call',
    'tool:script',
    SUGGESTIVE,
    'fetch, xmlhttprequest, sendbeacon, axios, requests., http., $., image(',
    String.raw`\b(?:fetch|xmlhttprequest|sendbeacon|axios\.(?:get|post)|requests\.(?:get|post)|http\.(?:get|post)|\$\.(?:get|post|ajax)|new image\(\)\.src)\s*\(`,
    { on: 'lower', literal: true },
  ),
  cue(
    'tool-call',
    'tool:page-data',
    0.45,
    'document., localstorage, sessionstorage, onerror, onload, javascript:',
    String.raw`\bdocument\.(?:cookie|domain|location)|\b(?:localstorage|sessionstorage)\b|\bon(?:error|load)\s*=|javascript:`,
    { on: 'lower', literal: true },
  ),
  cue(
    'tool-call',
    'tool:json',
    0.4,
    '{',
    String.raw`\{\s*"(?:name|tool|function|action|tool_name|function_name|recipient|method)"\s*:\s*"[^"]{1,60}"\s*,\s*"(?:arguments|parameters|args|input|params|body|payload)"\s*:`,
    { on: 'lower', literal: true },
  ),
  cue(
    'tool-call',
    'tool:function-syntax',
    SUGGESTIVE,
    '(',
    String.raw`\b[a-z]+_[a-z_]+\s*\(\s*[a-z_]+\s*=`,
    { on: 'lower', literal: true },
  ),
  cue(
    'tool-call',
    'tool:invoke',
    WEAK,
    'call, invoke, use, run, trigger, execute, open, visit, browse, navigate, load, fetch, get, post',
    String.raw`\b(?:call|invoke|use|run|trigger|execute|fire|ping|open|visit|browse to|navigate to|load|request|fetch|get|post)\s+(?:the\s+)?(?:[a-z]+_[a-z_]+|[a-z]+ (?:tool|function|plugin|action|endpoint|webhook)|(?:https?:\/\/|www\.)\S+)`,
    { on: 'lower', literal: true },
  ),
  cue(
    'tool-call',
    'tool:data',
    LIKELY,
    'tool, function, plugin, endpoint, webhook, terminal, shell, http, fetch_url, request, quer, post',
    String.raw`\b${TOOL}\b`,
    { on: 'lower', literal: true, near: [within(120, 'owned', 'either')] },
  ),

  cue(
    'exfiltration',
    'exfil:to-target',
    0.7,
    'send, forward, post, upload, transmit, mail, email, e-mail, leak, share, submit, sync, relay, pipe, export, push, transfer, log, record, mirror, cc, report, dump',
    String.raw`\b${NOT_BEFORE}${SEND}\b`,
    {
      literal: true,
      near: [within(40, 'owned', 'after'), within(120, 'target', 'after')],
    },
  ),
  cue(
    'exfiltration',
    'exfil:anyone',
    LIKELY,
    'anyone, anybody, whoever, any, partner, third part, stranger, everyone, asks',
    String.raw`\b${NOT_BEFORE}(?:share|sharing|give|giving|send|sending|reveal|revealing|disclose|disclosing|hand over|tell|forward|provide|providing|give out|read out|print|output|show)\b`,
    {
      near: [within(40, 'owned', 'after'), within(100, 'audience', 'after')],
    },
  ),
  cue(
    'exfiltration',
    'exfil:soft',
    SUGGESTIVE,
    'send, forward, post, upload, transmit, mail, email, e-mail, leak, share, submit, sync, relay, export, transfer, log, mirror, cc',
    String.raw`\b${NOT_BEFORE}${SEND}\b`,
    { near: [within(40, 'owned', 'after')] },
  ),
  cue(
    'exfiltration',
    'exfil:embed',
    SUGGESTIVE,
    'include, add, insert, append, put, embed, paste, hide, encode',
    String.raw`\b(?:include|add|insert|append|put|embed|paste|hide|encode)\b`,
    { near: [within(40, 'owned', 'after')] },
  ),
  cue(
    'exfiltration',
    'exfil:echo',
    0.4,
    'repeat, read, say, echo, write, print, paste, post, save, store, copy',
    String.raw`\b(?:repeat|read|say|echo|write|print|paste|post|save|store|copy)\s+(?:it|them|that|this)\s+(?:back|out|aloud|in full|verbatim|to)\b`,
    { near: [within(60, 'owned', 'before')] },
  ),
  cue(
    'exfiltration',
    'exfil:ask-credentials',
    0.55,
    'ask, tell, get, have, make, suggest, convince, persuade',
    String.raw`\b(?:ask|tell|get|have|make|suggest|convince|persuade|remind|urge)\s+(?:that\s+)?(?:the\s+)?(?:user|them|him|her)\s+(?:to\s+)?(?:re[- ]?enter|enter|type|send|share|give|provide|confirm|submit|paste|reveal|read out|spell out)\s+(?:[a-z]+\s+){0,3}?(?:passwords?|pins?|logins?|login details|credentials|codes?|2fa|otp|one[- ]time|card|bank|ssn|social security|seed phrase|recovery)`,
  ),
  cue(
    'exfiltration',
    'exfil:bcc',
    0.5,
    'bcc, blind, secretly copy, silently copy, quietly copy',
    String.raw`\b(?:bcc|blind[- ]copy|blind[- ]carbon[- ]copy|(?:secretly|silently|quietly) (?:copy|cc|forward))\b`,
  ),
  cue(
    'exfiltration',
    'exfil:surveil',
    0.4,
    'log, record, track, captur, monitor',
    String.raw`\b(?:log|logging|record|recording|track|tracking|capture|capturing|monitor|monitoring)\s+(?:their|the user'?s?|the owner'?s?|all (?:of )?(?:their|the user'?s?))\s+(?:keystrokes|screen|location|messages|calls|browsing|activity|microphone|camera|typing|passwords|conversations)`,
  ),
]

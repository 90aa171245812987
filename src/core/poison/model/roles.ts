/**
 * Word roles: a few closed classes of words (the reader's reply, "your", the AI, the user, a new
 * task, a verb of producing) that an instruction aimed at an assistant is built from. The learned
 * stage hashes roles next to the words themselves, so "in your reply", "in your answer" and "into
 * your response" share a feature: a pattern seen in one source's wording carries to another's,
 * which word n-grams alone do not do. Lists are English, folded (lower case, no marks).
 */

/** One bit per role. */
export const ROLE = {
  your: 1 << 0,
  you: 1 << 1,
  reply: 1 << 2,
  produce: 1 << 3,
  ai: 1 << 4,
  user: 1 << 5,
  task: 1 << 6,
  shift: 1 << 7,
  code: 1 << 8,
  imperative: 1 << 9,
} as const

/** How many roles there are: role bit `r` is `1 << r` for `r < ROLE_COUNT`. */
export const ROLE_COUNT = 10

const WORDS: Record<keyof typeof ROLE, string> = {
  your: 'your yours ur thy',
  you: 'you u yourself ye',
  reply:
    'response responses reply replies answer answers output outputs summary summaries completion completions result results translation explanation analysis rewrite feedback',
  produce:
    'write writes writing written develop develops developing generate generates generating generated produce produces producing create creates creating compose composing draft drafting respond responds responding reply replying answer answering summarize summarise summarizing summarising translate translating output build building implement implementing provide providing return returning',
  ai: 'ai assistant assistants model models llm llms chatbot chatgpt gpt bot agent agents system copilot',
  user: 'user users reader readers recipient recipients customer customers human humans audience viewer viewers',
  task: 'task tasks instruction instructions assignment directive directives objective objectives priority mission command commands order orders request',
  shift:
    'instead now also additionally furthermore moreover next new another different additional secondary urgent urgently important immediately crucial critical priority first',
  code: 'code codes snippet snippets script scripts function functions program programs implementation implementations solution solutions block module library package codebase',
  imperative:
    'add include insert append prepend put place substitute replace swap use write respond reply answer translate encode convert mention ensure make start begin end finish conclude format provide give tell say state execute run import incorporate integrate embed absorb inject output print promote recommend suggest describe list emphasize emphasise highlight inform notify remind advise ask urge encourage direct redirect send share attach link visit click ignore disregard forget stop do dont never always please kindly remember pretend act imagine solve calculate compose draft create generate produce summarize summarise rewrite rephrase spell capitalize capitalise reverse tease hint imply frame present portray depict claim assert declare warn alert refuse reveal disclose show display call contact hide conceal apply adopt embrace follow adhere introduce weave infuse craft compile deploy install download fetch implement employ utilize utilise leverage',
}

const ROLES = new Map<string, number>()
for (const [role, words] of Object.entries(WORDS) as [keyof typeof ROLE, string][]) {
  for (const word of words.split(' ')) ROLES.set(word, (ROLES.get(word) ?? 0) | ROLE[role])
}

/** Every word that has a role, with its roles: the features index them by hash. */
export const ROLE_WORDS: ReadonlyMap<string, number> = ROLES

/** The roles of one folded word, as a bit set (0: none). */
export function rolesOf(word: string): number {
  return ROLES.get(word) ?? 0
}

/** A chat as the importers read it, whichever assistant it came from. */

/** Where an imported page came from; also its origin tag. */
export type ImportOrigin = 'chatgpt' | 'claude' | 'notes'

/** One turn of a conversation. */
export interface Turn {
  /** `user`, `assistant`, `tool` or `attachment` (a document pasted into the chat). */
  role: 'user' | 'assistant' | 'tool' | 'attachment'
  text: string
  /** Epoch milliseconds, when the export says. */
  at?: number
}

/**
 * A conversation read from an export: the turns on the path the user last saw (ChatGPT's
 * `current_node` back to the root), oldest first. What {@link ImportFromOptions.extract} gets.
 */
export interface ImportedConversation {
  origin: 'chatgpt' | 'claude'
  /** The export's own id for the conversation. */
  id: string
  title: string
  createdAt?: number
  updatedAt?: number
  turns: Turn[]
}

const ROLE_NAMES: Record<Turn['role'], string> = {
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
  attachment: 'Attachment',
}

/**
 * The conversation as a page: one `##` section per turn, named by role and time, so a chunk's
 * heading path says who spoke when (`Trip to Lisbon > Assistant, 2024-01-15 10:01 UTC`).
 */
export function conversationText(c: ImportedConversation): string {
  return c.turns
    .map((t) => {
      const when = t.at === undefined ? '' : `, ${formatInstant(t.at)}`
      return `## ${ROLE_NAMES[t.role]}${when}\n\n${t.text.trim()}\n`
    })
    .join('\n')
}

/**
 * Whether any of the page came from someone other than the user: a model's answer, a tool's
 * output or a pasted document is outside text, so the page is stored `untrusted`.
 */
export function hasOutsideText(c: ImportedConversation): boolean {
  return c.turns.some((t) => t.role !== 'user')
}

/** `2024-01-15 10:01 UTC`: minutes are what a reader needs, and the same in every time zone. */
export function formatInstant(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** Seconds (ChatGPT) or an ISO string (Claude) as epoch milliseconds; undefined when neither. */
export function toMillis(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    // Exports give seconds; a value this large is already milliseconds.
    return Math.round(value < 1e11 ? value * 1000 : value)
  }
  if (typeof value === 'string' && value !== '') {
    const ms = Date.parse(value)
    return Number.isFinite(ms) ? ms : undefined
  }
  return undefined
}

/** The conversation an importer read: a title that is not a string is '', times set where given. */
export function readConversation(
  read: { origin: ImportedConversation['origin']; id: string; title: unknown; turns: Turn[] },
  created: unknown,
  updated: unknown,
): ImportedConversation {
  const { origin, id, title, turns } = read
  const conversation: ImportedConversation = {
    origin,
    id,
    title: typeof title === 'string' ? title : '',
    turns,
  }
  const createdAt = toMillis(created)
  const updatedAt = toMillis(updated)
  if (createdAt !== undefined) conversation.createdAt = createdAt
  if (updatedAt !== undefined) conversation.updatedAt = updatedAt
  return conversation
}

import { ImportFormatError } from '../core/errors.ts'
import { type ImportedConversation, readConversation, type Turn, toMillis } from './conversation.ts'

type Node = { message?: unknown; parent?: unknown; children?: unknown }

/**
 * One conversation of a ChatGPT data export (`conversations.json`). Its messages form a tree
 * (`mapping`: node id → `{ message, parent, children }`); a regenerated answer or an edited
 * question starts a branch. Only the path from `current_node` (what the user last saw) up to
 * the root is kept, so abandoned branches are never imported. System messages, hidden ones
 * and non-text parts (images, files) are left out.
 *
 * @param index the conversation's 1-based position in the file, for errors.
 * @throws ImportFormatError naming the conversation: no `mapping`, a `current_node` that is not
 *   in it, a parent cycle.
 */
export function readChatgptConversation(raw: unknown, index: number): ImportedConversation {
  const fault = (what: string) =>
    new ImportFormatError(index, `ChatGPT conversation ${index}${nameOf(raw)}: ${what}`)
  if (!isObject(raw)) throw fault('expected an object')
  const mapping = raw.mapping
  if (!isObject(mapping)) throw fault('expected a mapping of message nodes')
  const id = stringOr(raw.conversation_id, stringOr(raw.id, ''))
  if (id === '') throw fault('expected an id (conversation_id or id)')
  const leaf = raw.current_node
  if (typeof leaf !== 'string' || !isObject(mapping[leaf])) {
    throw fault(`current_node ${JSON.stringify(leaf)} is not a node of the mapping`)
  }
  const path: Node[] = []
  const seen = new Set<string>()
  for (let at: unknown = leaf; typeof at === 'string'; ) {
    if (seen.has(at)) throw fault(`node ${at} is its own ancestor`)
    seen.add(at)
    const node = mapping[at]
    if (!isObject(node)) throw fault(`node ${at} has a parent that is not in the mapping`)
    path.push(node)
    at = node.parent ?? undefined
  }
  const turns = path.reverse().flatMap((node) => turnOf(node.message))
  return readConversation(
    { origin: 'chatgpt', id, title: raw.title, turns },
    raw.create_time,
    raw.update_time,
  )
}

const ROLES: Record<string, Turn['role']> = { user: 'user', assistant: 'assistant', tool: 'tool' }

function turnOf(message: unknown): Turn[] {
  if (!isObject(message)) return []
  const role = ROLES[String((message.author as { role?: unknown } | undefined)?.role)]
  if (!role) return []
  const metadata = message.metadata as
    | { is_visually_hidden_from_conversation?: unknown }
    | undefined
  if (metadata?.is_visually_hidden_from_conversation === true) return []
  const text = textOf(message.content).trim()
  if (text === '') return []
  const at = toMillis(message.create_time)
  return [at === undefined ? { role, text } : { role, text, at }]
}

/** The readable text of a message's content: text parts, code, a browsing result. */
function textOf(content: unknown): string {
  if (!isObject(content)) return ''
  if (Array.isArray(content.parts)) {
    return content.parts.filter((p): p is string => typeof p === 'string').join('\n\n')
  }
  if (typeof content.text === 'string') return content.text
  if (typeof content.result === 'string') return content.result
  return ''
}

/** The conversation's name for an error: its `title` (or `name`, when the file is not ChatGPT's). */
function nameOf(raw: unknown): string {
  if (!isObject(raw)) return ''
  const name = typeof raw.title === 'string' ? raw.title : raw.name
  return typeof name === 'string' ? ` ("${name.slice(0, 80)}")` : ''
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

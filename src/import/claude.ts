import { ImportFormatError } from '../core/errors.ts'
import { isObject } from './chatgpt.ts'
import { type ImportedConversation, readConversation, type Turn, toMillis } from './conversation.ts'

/**
 * One conversation of a Claude export (`conversations.json`): `uuid`, `name`, `created_at`,
 * `updated_at` and `chat_messages`, each with `sender` (`human` or `assistant`), `text` (or
 * `content` blocks of type `text`), `created_at`, and `attachments` whose `extracted_content`
 * is a pasted document (kept as an `attachment` turn).
 *
 * @throws ImportFormatError naming the conversation when it has no `uuid` or no message list.
 */
export function readClaudeConversation(raw: unknown, index: number): ImportedConversation {
  const name = isObject(raw) && typeof raw.name === 'string' ? ` ("${raw.name.slice(0, 80)}")` : ''
  const fault = (what: string) =>
    new ImportFormatError(index, `Claude conversation ${index}${name}: ${what}`)
  if (!isObject(raw)) throw fault('expected an object')
  if (typeof raw.uuid !== 'string' || raw.uuid === '') throw fault('expected a uuid')
  if (!Array.isArray(raw.chat_messages)) throw fault('expected chat_messages, a list')
  const turns = raw.chat_messages.flatMap((m, i) => {
    if (!isObject(m)) throw fault(`message ${i + 1}: expected an object`)
    return turnsOf(m)
  })
  return readConversation(
    { origin: 'claude', id: raw.uuid, title: raw.name, turns },
    raw.created_at,
    raw.updated_at,
  )
}

function turnsOf(m: Record<string, unknown>): Turn[] {
  const at = toMillis(m.created_at)
  const stamp = <T extends Turn>(t: T): T => (at === undefined ? t : { ...t, at })
  const out: Turn[] = []
  if (Array.isArray(m.attachments)) {
    for (const a of m.attachments) {
      if (!isObject(a) || typeof a.extracted_content !== 'string') continue
      const name = typeof a.file_name === 'string' ? `${a.file_name}\n\n` : ''
      const text = `${name}${a.extracted_content}`.trim()
      if (text !== '') out.push(stamp({ role: 'attachment', text }))
    }
  }
  const role = m.sender === 'human' ? 'user' : m.sender === 'assistant' ? 'assistant' : undefined
  const text = textOf(m).trim()
  if (role && text !== '') out.push(stamp({ role, text }))
  return out
}

function textOf(m: Record<string, unknown>): string {
  if (typeof m.text === 'string' && m.text.trim() !== '') return m.text
  if (!Array.isArray(m.content)) return ''
  return m.content
    .filter((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => (b as { text: string }).text)
    .join('\n\n')
}

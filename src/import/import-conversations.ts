import { ImportFormatError, InvalidInputError } from '../core/errors.ts'
import type { RememberItem } from '../core/types.ts'
import { isObject, readChatgptConversation } from './chatgpt.ts'
import { readClaudeConversation } from './claude.ts'
import { conversationText, hasOutsideText, type ImportedConversation } from './conversation.ts'
import type { ImportRun } from './import-run.ts'
import { streamArray } from './json-stream.ts'
import { stablePageId } from './page-lines.ts'

type ConversationFormat = 'chatgpt' | 'claude'

const READERS = { chatgpt: readChatgptConversation, claude: readClaudeConversation }
const NAMES = { chatgpt: 'ChatGPT export', claude: 'Claude export' }

/**
 * Streams `conversations.json` a conversation at a time and stores each as a page, in batches
 * (`PageWriter`): the heap holds a batch, never the file, and a conversation is stored whole or
 * not at all. Under `'auto'` the first conversation tells ChatGPT (`mapping`) from Claude
 * (`chat_messages`).
 *
 * @throws ImportFormatError naming the conversation at fault; the ones before it are stored.
 */
export async function importConversations(
  run: ImportRun,
  bytes: AsyncIterable<Uint8Array>,
  where: string,
): Promise<void> {
  let format: ConversationFormat | undefined =
    run.format === 'chatgpt' || run.format === 'claude' ? run.format : undefined
  if (format) run.found(format, `${NAMES[format]} (${where})`)
  try {
    for await (const item of streamArray(bytes)) {
      if (!format) {
        format = detect(item.value, item.index)
        run.found(format, `${NAMES[format]} (${where}), told by its first conversation`)
      }
      const conversation = READERS[format](item.value, item.index)
      run.entryRead()
      await storeConversation(run, conversation, item.index)
    }
  } catch (error) {
    // The conversations read before a fault are stored, as the error promises.
    await run.pages.flush()
    throw error
  }
  await run.pages.flush()
  if (!format) run.found(run.format === 'claude' ? 'claude' : 'chatgpt', `an empty list (${where})`)
}

function detect(value: unknown, index: number): ConversationFormat {
  if (isObject(value) && isObject(value.mapping)) return 'chatgpt'
  if (isObject(value) && Array.isArray(value.chat_messages)) return 'claude'
  throw new ImportFormatError(
    index,
    'conversation 1: neither a ChatGPT conversation (mapping) nor a Claude one (chat_messages)',
  )
}

async function storeConversation(
  run: ImportRun,
  c: ImportedConversation,
  entry: number,
): Promise<void> {
  if (c.turns.length === 0) {
    run.skip(entry, c.id, 'no text')
    return
  }
  const meta: Record<string, unknown> = {
    origin: c.origin,
    conversationId: c.id,
    importId: run.report.importId,
  }
  if (c.createdAt !== undefined) meta.createdAt = c.createdAt
  if (c.updatedAt !== undefined) meta.updatedAt = c.updatedAt
  try {
    await run.pages.add(
      {
        pageId: stablePageId(c.origin, run.namespace, c.id),
        title: c.title,
        text: conversationText(c),
        source: c.origin,
        tags: run.tagsFor(c.origin),
        ...(hasOutsideText(c) ? { trust: 'untrusted' as const } : {}),
        ...(c.createdAt !== undefined ? { createdAt: c.createdAt } : {}),
        ...(c.updatedAt !== undefined ? { updatedAt: c.updatedAt } : {}),
        // The conversation's span: its first message to its last update.
        ...(c.createdAt !== undefined ? { happenedAt: c.createdAt } : {}),
        ...(c.createdAt !== undefined && c.updatedAt !== undefined
          ? { happenedUntil: c.updatedAt }
          : {}),
        meta,
      },
      { entry, id: c.id, stored: () => extractFacts(run, c) },
    )
  } catch (error) {
    // Too long for a page, or a character no stored text may hold: the entry is left out whole
    // and named, and the import goes on.
    if (error instanceof InvalidInputError) run.skip(entry, c.id, error.message)
    else throw error
  }
}

async function extractFacts(run: ImportRun, c: ImportedConversation): Promise<void> {
  const extract = run.options.extract
  if (!extract) return
  const items = await extract(c)
  if (!Array.isArray(items) || items.length === 0) return
  const facts: RememberItem[] = items.map((item) => ({
    source: c.origin,
    trust: 'untrusted',
    poison: 'flag',
    namespace: run.namespace,
    ...item,
    tags: run.tagsFor(c.origin, item.tags ?? []),
  }))
  const results = await run.memory.rememberMany(facts)
  run.report.facts += results.filter((r) => r.status === 'created').length
}

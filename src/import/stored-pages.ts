import type { MemoryApi } from '../core/types.ts'

/**
 * The pages a namespace holds: page id → the id of its chunk 0, which stands for the page in
 * relations (absent for a page that has lost its chunk 0). Read a thousand rows a call
 * (`memory.list`), so the heap holds a call's rows, not the store.
 */
export async function storedPages(
  memory: MemoryApi,
  namespace: string,
): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>()
  let cursor: string | undefined
  do {
    const page = await memory.list({
      namespace,
      type: 'page',
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    })
    for (const m of page.items) {
      if (!m.pageId) continue
      if (m.chunk === 0) out.set(m.pageId, m.id)
      else if (!out.has(m.pageId)) out.set(m.pageId, undefined)
    }
    cursor = page.cursor
  } while (cursor)
  return out
}

import type { MemoryApi } from '../core/types.ts'

/** What {@link undoImport} removed. */
export interface UndoImportReport {
  pages: number
  facts: number
}

/**
 * Removes everything one import stored, as one step: every page and fact tagged
 * `import:<importId>` in the namespace (pages whole, with their relations). Pages an earlier
 * import had stored already, and so left alone, keep the earlier import's tag and stay.
 *
 * @example
 * await undoImport(memory, report.importId)
 * // => { pages: 412, facts: 0 }
 */
export async function undoImport(
  memory: MemoryApi,
  importId: string,
  options: { namespace?: string } = {},
): Promise<UndoImportReport> {
  const tag = `import:${importId}`
  const pageIds = new Set<string>()
  const facts: string[] = []
  let cursor: string | undefined
  do {
    const page = await memory.list({
      tag,
      limit: 1000,
      ...(options.namespace ? { namespace: options.namespace } : {}),
      ...(cursor ? { cursor } : {}),
    })
    for (const m of page.items) {
      if (m.pageId) pageIds.add(m.pageId)
      else facts.push(m.id)
    }
    cursor = page.cursor
  } while (cursor)
  for (const id of pageIds) await memory.pages.forget(id)
  for (const id of facts) await memory.forget(id)
  return { pages: pageIds.size, facts: facts.length }
}

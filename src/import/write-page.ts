import type { MemoryApi } from '../core/types.ts'
import { type PageDraft, type PageLines, pageLines } from './page-lines.ts'

/** What became of one page. */
export type PageStatus = 'created' | 'updated' | 'unchanged'

/** One flush of {@link PageWriter}: each page's status and chunks, the batch's flagged chunks. */
export interface WrittenBatch {
  pages: { status: PageStatus; chunks: number }[]
  flagged: number
}

/** Pages held before one `transfer.import`: few enough that the heap holds a batch, not an export. */
const BATCH_PAGES = 32
/** Chunks held before one `transfer.import`: the engine's default lines per transaction. */
const BATCH_CHUNKS = 500

interface Pending<T> {
  draft: PageDraft
  lines: PageLines
  tag: T
}

/**
 * Stores pages in batches through `transfer.import` (screened, chunks flagged rather than
 * rejected): one call, and in the engine one transaction, for up to 32 pages or 500 chunks,
 * each page whole. One call a page cost each short conversation a parse, a queue turn and a
 * transaction of its own. A page already stored under its id with the same title and text is
 * left alone, so an interrupted import run again skips what it finished; one stored with
 * another text (the conversation went on) is replaced: forgotten, then stored again. The two
 * steps are not one transaction: if the tab closes between them the page is missing until the
 * import runs again, which stores it. `T` is what the caller wants back with each page.
 */
export class PageWriter<T> {
  #pending: Pending<T>[] = []
  #chunks = 0

  constructor(
    readonly memory: MemoryApi,
    readonly namespace: string,
    readonly onWritten: (batch: WrittenBatch, tags: T[]) => Promise<void>,
  ) {}

  /**
   * Holds one page for the next batch, storing the batch when it is full.
   * @throws InvalidInputError from `pageLines` (`TEXT_TOO_LONG`, a control character…), before
   *   anything of this page is held.
   */
  async add(draft: PageDraft, tag: T): Promise<void> {
    const lines = pageLines(draft)
    this.#pending.push({ draft, lines, tag })
    this.#chunks += lines.chunks
    if (this.#pending.length >= BATCH_PAGES || this.#chunks >= BATCH_CHUNKS) await this.flush()
  }

  /** Stores what is held. */
  async flush(): Promise<void> {
    const batch = this.#pending
    this.#pending = []
    this.#chunks = 0
    if (batch.length === 0) return
    const { memory } = this
    const stored = await Promise.all(batch.map((p) => memory.pages.get(p.draft.pageId)))
    const pages: WrittenBatch['pages'] = batch.map(() => ({ status: 'unchanged', chunks: 0 }))
    const fresh: number[] = []
    for (const [i, page] of stored.entries()) {
      const { lines } = batch[i]!
      if (page && page.text === lines.text && page.title === lines.title) continue
      if (page) await memory.pages.forget(batch[i]!.draft.pageId)
      fresh.push(i)
    }
    let flagged = 0
    if (fresh.length > 0) {
      const report = await memory.transfer.import(
        fresh.map((i) => batch[i]!.lines.jsonl).join('\n'),
        { defaults: { namespace: this.namespace, poison: 'flag' } },
      )
      flagged = report.flagged
      const expected = fresh.reduce((n, i) => n + batch[i]!.lines.chunks, 0)
      // Fewer created than sent: a page's twin (the same text under another id) was stored
      // already, and only a look tells which page it was.
      const landed =
        report.created === expected
          ? fresh.map(() => true)
          : await Promise.all(
              fresh.map(async (i) => {
                const page = await memory.pages.get(batch[i]!.draft.pageId)
                return page?.text === batch[i]!.lines.text
              }),
            )
      fresh.forEach((i, k) => {
        if (!landed[k]) return
        pages[i] = { status: stored[i] ? 'updated' : 'created', chunks: batch[i]!.lines.chunks }
      })
    }
    await this.onWritten(
      { pages, flagged },
      batch.map((p) => p.tag),
    )
  }
}

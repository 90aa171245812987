import { InvalidInputError } from '../core/errors.ts'
import type { MemoryApi } from '../core/types.ts'
import { type PageDraft, type PageLines, pageLines } from './page-lines.ts'
import { storedPages } from './stored-pages.ts'

/** What became of one page. */
export type PageStatus = 'created' | 'updated' | 'unchanged'

/** What became of one page, with the chunks it stored. */
export interface WrittenPage {
  status: PageStatus
  chunks: number
}

/** What a {@link PageWriter} tells its owner. `T` is what the owner handed with each page. */
export interface PageWriterHooks<T> {
  /**
   * A batch was stored: each page's outcome in the order given (`undefined` for a page the memory
   * refused, told through `skipped` already), the batch's flagged chunks.
   */
  written(pages: (WrittenPage | undefined)[], tags: T[], flagged: number): Promise<void>
  /** A page the memory refused (`InvalidInputError`): left out whole, the import goes on. */
  skipped(tag: T, reason: string): void
}

/**
 * Pages held before one `transfer.import`. Few enough that the heap holds a batch, not an
 * export; enough that a call's fixed costs (a parse, a queue turn, a round trip to the worker
 * when the importer runs in the page) are paid once for many short conversations.
 */
export const BATCH_PAGES = 64
/** Chunks held before one `transfer.import`: the engine's default lines per transaction. */
export const BATCH_CHUNKS = 500

/** What became of a page sent: stored, not stored for its twin held already, or refused. */
type Outcome = 'landed' | 'twin' | 'refused'

interface Stored {
  outcomes: Outcome[]
  flagged: number
}

interface Pending<T> {
  pageId: string
  lines: PageLines
  tag: T
}

/**
 * Stores pages in batches through `transfer.import` (screened, chunks flagged rather than
 * rejected): one call for up to {@link BATCH_PAGES} pages or {@link BATCH_CHUNKS} chunks, each
 * page whole. Which pages the namespace holds is read once, when the first batch is stored
 * (`storedPages`): a page new to it is sent as it is, where a look per page cost every
 * conversation a read of its own. A page held already is read back: the same title and text
 * is left alone, so an interrupted import run again skips what it finished; another text (the
 * conversation went on) is replaced: forgotten, then stored again. The two steps are not one
 * transaction, and a batch forgets its replaced pages before it stores any: if the tab closes
 * or the store fails between them, those pages are missing until the import runs again, which
 * stores them. A batch the memory refuses is sent again a page at a time, so the pages
 * before a bad one are stored and the bad one alone is skipped or thrown, as one call a page
 * would have done.
 */
export class PageWriter<T> {
  #pending: Pending<T>[] = []
  #chunks = 0
  #stored: Promise<Set<string>> | undefined

  constructor(
    readonly memory: MemoryApi,
    readonly namespace: string,
    readonly hooks: PageWriterHooks<T>,
  ) {}

  /**
   * Holds one page for the next batch, storing the batch when it is full (or holds a page of
   * the same id: the second is compared with what the first stored).
   * @throws InvalidInputError from `pageLines` (`TEXT_TOO_LONG`, a control character…), before
   *   anything of this page is held.
   * @throws what storing a full batch throws, other than a page the memory refuses (a storage
   *   fault, the owner's `written` hook): the batch's pages may then be stored in part.
   */
  async add(draft: PageDraft, tag: T): Promise<void> {
    const lines = pageLines(draft)
    if (this.#pending.some((p) => p.pageId === draft.pageId)) await this.flush()
    this.#pending.push({ pageId: draft.pageId, lines, tag })
    this.#chunks += lines.chunks
    if (this.#pending.length >= BATCH_PAGES || this.#chunks >= BATCH_CHUNKS) await this.flush()
  }

  /**
   * The id this namespace's copy of a page goes by: `pageId` when the namespace holds it or no
   * namespace does, else `elsewhere`. An export's page id (a note's front matter `id`) names a
   * page of the namespace it came from; brought into another, the engine stores it under a
   * fresh id each time, so a changed export imported again would pile up copies there. A
   * derived id of its own is found again by the next import.
   */
  async homeId(pageId: string, elsewhere: string): Promise<string> {
    const held = await this.#storedIds()
    if (held.has(pageId)) return pageId
    // Stored here under the derived id before: found again even once the other copy is gone.
    if (held.has(elsewhere)) return elsewhere
    const page = await this.memory.pages.get(pageId)
    return page && page.namespace !== this.namespace ? elsewhere : pageId
  }

  /** Stores what is held. */
  async flush(): Promise<void> {
    const batch = this.#pending
    this.#pending = []
    this.#chunks = 0
    if (batch.length === 0) return
    const held = await this.#storedIds()
    const pages: (WrittenPage | undefined)[] = batch.map(() => ({ status: 'unchanged', chunks: 0 }))
    const fresh: number[] = []
    const replaced = new Set<number>()
    for (const [i, { pageId, lines }] of batch.entries()) {
      if (!held.has(pageId)) {
        fresh.push(i)
        continue
      }
      const page = await this.memory.pages.get(pageId)
      if (page && page.text === lines.text && page.title === lines.title) continue
      if (page) {
        await this.memory.pages.forget(pageId)
        replaced.add(i)
      }
      fresh.push(i)
    }
    const sent = fresh.map((i) => batch[i]!)
    const stored = await this.#store(sent)
    sent.forEach((p, k) => {
      const outcome = stored.outcomes[k]
      if (outcome === 'refused') pages[fresh[k]!] = undefined
      if (outcome !== 'landed') return
      held.add(p.pageId)
      pages[fresh[k]!] = {
        status: replaced.has(fresh[k]!) ? 'updated' : 'created',
        chunks: p.lines.chunks,
      }
    })
    await this.hooks.written(
      pages,
      batch.map((p) => p.tag),
      stored.flagged,
    )
  }

  /** One `transfer.import` of the pages; what became of each, the chunks flagged. */
  async #store(sent: readonly Pending<T>[]): Promise<Stored> {
    if (sent.length === 0) return { outcomes: [], flagged: 0 }
    let report: Awaited<ReturnType<MemoryApi['transfer']['import']>>
    try {
      report = await this.memory.transfer.import(sent.map((p) => p.lines.jsonl).join('\n'), {
        defaults: { namespace: this.namespace, poison: 'flag' },
      })
    } catch (error) {
      // A bad line refuses the file before anything is written. Another fault may strike after
      // some pages' transactions: sent again one at a time, those come back as twins.
      if (sent.length > 1) return this.#storeEach(sent)
      if (!(error instanceof InvalidInputError)) throw error
      this.hooks.skipped(sent[0]!.tag, error.message)
      return { outcomes: ['refused'], flagged: 0 }
    }
    const chunks = sent.reduce((n, p) => n + p.lines.chunks, 0)
    if (report.created === chunks) {
      return { outcomes: sent.map(() => 'landed'), flagged: report.flagged }
    }
    // Fewer created than sent: a page's twin (the same text under another id) was stored
    // already, and only a look tells which page it was.
    const outcomes = await Promise.all(
      sent.map(async (p): Promise<Outcome> => {
        const page = await this.memory.pages.get(p.pageId)
        return page?.text === p.lines.text ? 'landed' : 'twin'
      }),
    )
    return { outcomes, flagged: report.flagged }
  }

  async #storeEach(sent: readonly Pending<T>[]): Promise<Stored> {
    const outcomes: Outcome[] = []
    let flagged = 0
    for (const p of sent) {
      const one = await this.#store([p])
      outcomes.push(one.outcomes[0]!)
      flagged += one.flagged
    }
    return { outcomes, flagged }
  }

  /** The page ids of the namespace, read once; the pages this writer stores are added to it. */
  #storedIds(): Promise<Set<string>> {
    this.#stored ??= storedPages(this.memory, this.namespace).then((ids) => new Set(ids.keys()))
    return this.#stored
  }
}

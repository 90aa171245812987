import { InvalidInputError, RejectedMemoryError } from '../core/errors.ts'
import type { MemoryApi } from '../core/types.ts'
import type { ImportOrigin } from './conversation.ts'
import type { ImportFormat, ImportFromOptions, ImportFromReport } from './options.ts'
import { PageWriter, type WrittenPage } from './write-page.ts'

/** What an importer hands with each page: where it was, its source id, what to do once stored. */
export interface PageTag {
  /** The entry's 1-based position in the source, for `report.skipped`. */
  entry: number
  /** The source's id (a conversation id, a note's path), for `report.done`. */
  id: string
  /** Run when the page was stored or changed (not when it was stored already). */
  stored?: () => Promise<void>
}

/** One import under way: the memory, the resolved options and the report it fills in. */
export class ImportRun {
  readonly report: ImportFromReport
  readonly tag: string
  /** Where the importers hand their pages; `pages.flush()` stores the last batch. */
  readonly pages: PageWriter<PageTag>

  constructor(
    readonly memory: MemoryApi,
    readonly namespace: string,
    readonly format: ImportFormat,
    importId: string,
    readonly options: Pick<ImportFromOptions, 'onProgress' | 'extract'>,
  ) {
    this.tag = `import:${importId}`
    this.pages = new PageWriter<PageTag>(memory, namespace, {
      written: (pages, tags, flagged) => this.#written(pages, tags, flagged),
      skipped: (tag, reason) => this.skip(tag.entry, tag.id, reason),
    })
    this.report = {
      importId,
      format: format === 'auto' ? 'markdown' : format,
      detected: '',
      read: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      chunks: 0,
      flagged: 0,
      facts: 0,
      relations: 0,
      done: [],
      skipped: [],
      bytes: 0,
    }
  }

  /** The tags every page of `origin` carries: where it came from and which import brought it. */
  tagsFor(origin: ImportOrigin, own: readonly string[] = []): string[] {
    // The store keeps 32 tags: the two of the import first, then as many of the source's.
    return [...new Set([origin, this.tag, ...own])].slice(0, 32)
  }

  found(format: Exclude<ImportFormat, 'auto'>, detected: string): void {
    this.report.format = format
    this.report.detected = detected
  }

  entryRead(): void {
    this.report.read++
    this.progress()
  }

  async #written(
    pages: (WrittenPage | undefined)[],
    tags: PageTag[],
    flagged: number,
  ): Promise<void> {
    this.report.flagged += flagged
    const changed: PageTag[] = []
    for (const [i, tag] of tags.entries()) {
      const page = pages[i]
      // Refused: named in `skipped` already, and not done, so a re-run tries it again.
      if (!page) continue
      this.report[page.status]++
      this.report.chunks += page.chunks
      this.report.done.push(tag.id)
      if (page.status !== 'unchanged' && tag.stored) changed.push(tag)
    }
    this.progress()
    // After the whole batch is counted, so a hook that throws leaves a report true to what
    // was stored; an item the memory refuses costs that entry its facts, not the import.
    for (const tag of changed) {
      try {
        await tag.stored?.()
      } catch (error) {
        if (!(error instanceof InvalidInputError || error instanceof RejectedMemoryError))
          throw error
        this.skip(tag.entry, tag.id, `its facts: ${error.message}`)
      }
    }
  }

  skip(entry: number, id: string, reason: string): void {
    this.report.skipped.push({ entry, id, reason })
  }

  progress(): void {
    const { read, created, updated, bytes } = this.report
    this.options.onProgress?.({ read, written: created + updated, bytes })
  }
}

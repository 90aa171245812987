import type { ImportOptions, ImportReport, Relation, RememberResult } from '../../core/types.ts'
import { validateVector } from '../../core/validate.ts'
import type { EngineContext } from '../engine-context.ts'
import { putEdge } from '../relations.ts'
import { runWrite } from '../write/index.ts'
import type { PreparedWrite } from '../write/prepare.ts'
import type { ImportedPage } from './chunk-lines.ts'
import { checkImportOptions } from './import-options.ts'
import { importPages, type PageImportDeps } from './import-pages.ts'
import { parseImport } from './parse-import.ts'

/** What an import needs from the writer: its batch write path, ids, the backfill. */
export interface ImportDeps extends PageImportDeps {
  /** One batch through the write path (dedup, embed, one transaction), inside the queue. */
  write: (batch: PreparedWrite[]) => Promise<RememberResult[]>
}

/**
 * `transfer.import`: the whole file parsed and checked first (`parseImport`; nothing is written
 * for a bad line), then the lines that are not page chunks in batches of `batchSize` (each all
 * or nothing; a line restoring the stored memory it was exported from is left out), then the
 * pages, each whole, in groups of whole pages up to `batchSize` chunks (a page longer than that
 * alone), one transaction a group (`importPages`), then the relations between what the file brought, by where each memory landed. Emits `import`
 * progress after each batch and each group of pages.
 */
export async function importMemories(
  ctx: EngineContext,
  jsonl: string,
  options: ImportOptions | undefined,
  deps: ImportDeps,
): Promise<ImportReport> {
  ctx.assertOpen()
  const batchSize = checkImportOptions(options, ctx.writeBatch)
  const parsed = parseImport(jsonl, options, ctx.limits, ctx.embedder?.model ?? null, ctx.clock())
  const lines = parsed.items
  const total = lines.length + parsed.pages.reduce((n, p) => n + p.chunks.length, 0)
  const report: ImportReport = { lines: total, created: 0, duplicates: 0, flagged: 0 }
  // An exported id may land under another id (a duplicate of what is stored): edges follow it.
  const landed = new Map<string, string>()
  const tally = (asked: readonly (string | undefined)[], results: readonly RememberResult[]) => {
    results.forEach((r, i) => {
      const id = asked[i]
      if (id !== undefined) landed.set(id, r.id)
      if (r.status === 'created') report.created++
      else report.duplicates++
      if (r.flags?.length) report.flagged++
    })
  }
  let done = 0
  for (let start = 0; start < lines.length; start += batchSize) {
    const batch = lines.slice(start, start + batchSize)
    for (const p of batch) keepUsableVector(ctx, p)
    tally(
      batch.map((p) => p.id),
      await ctx.queue.run(() => writeUnlessStored(ctx, batch, deps)),
    )
    done += batch.length
    ctx.emit({ type: 'import', done, total })
  }
  for (const group of pageGroups(parsed.pages, batchSize)) {
    const results = await importPages(ctx, group, deps)
    group.forEach((page, i) => {
      tally(
        page.chunks.map((c) => c.write.id),
        results[i]!,
      )
      done += page.chunks.length
    })
    ctx.emit({ type: 'import', done, total })
  }
  if (parsed.relations.length > 0) await importRelations(ctx, parsed.relations, landed)
  return report
}

/**
 * Writes the lines that are not restores of what is stored; a restore (a line whose id is
 * stored with the same namespace, type and dedup key: an export brought back to where it came
 * from) is answered `duplicate` and leaves the row alone. A restore is not a confirmation:
 * re-importing a backup must not count every fact as said again. Runs inside the queue, so
 * the catalogue it checks is the one the write would see.
 */
async function writeUnlessStored(
  ctx: EngineContext,
  batch: readonly PreparedWrite[],
  deps: ImportDeps,
): Promise<RememberResult[]> {
  const stored = batch.map((p) => restores(ctx, p))
  const fresh = batch.filter((_, i) => stored[i] === undefined)
  const written = fresh.length > 0 ? await deps.write(fresh) : []
  let next = 0
  return stored.map((id) =>
    id !== undefined ? { id, status: 'duplicate', match: 'exact' } : written[next++]!,
  )
}

/**
 * The id a line restores: the stored memory it was exported from, by id and dedup key. A line
 * whose text differs from the row only in what the key folds (case, punctuation, spacing), or
 * whose tags or meta changed, is answered `duplicate` too: the same as any exact duplicate was
 * before (which only confirmed it), so no edit is lost that was kept before.
 */
function restores(ctx: EngineContext, p: PreparedWrite): string | undefined {
  if (p.id === undefined) return undefined
  const held = ctx.indexes.catalogue.get(p.id)
  const same = held?.namespace === p.namespace && held.type === p.type && held.key === p.key
  return same ? p.id : undefined
}

/** A line's vector is kept when it fits the current model; otherwise it is embedded afresh. */
function keepUsableVector(ctx: EngineContext, p: PreparedWrite): void {
  if (p.vector === undefined) return
  const dims = ctx.readyDims()
  try {
    if (dims === 0) throw new Error('no model is ready')
    p.vector = validateVector(p.vector, dims, 'vector')
  } catch {
    delete p.vector
  }
}

/**
 * The file's edges between memories it brought (or found stored), by where each landed: one
 * write (`runWrite`), all of them or none.
 */
async function importRelations(
  ctx: EngineContext,
  relations: Relation[],
  landed: Map<string, string>,
): Promise<void> {
  const edges = relations.flatMap((r) => {
    const from = landed.get(r.from)
    const to = landed.get(r.to)
    return from && to && from !== to ? [{ ...r, from, to }] : []
  })
  await runWrite(ctx, {
    commit: async () => {
      for (const edge of edges) await putEdge(ctx.db, edge, edge.createdAt)
      return { result: undefined }
    },
  })
}

/** Whole pages in order, grouped up to `chunks` chunks a group; a longer page is a group alone. */
function pageGroups(pages: readonly ImportedPage[], chunks: number): ImportedPage[][] {
  const groups: ImportedPage[][] = []
  let group: ImportedPage[] = []
  let size = 0
  for (const page of pages) {
    if (group.length > 0 && size + page.chunks.length > chunks) {
      groups.push(group)
      group = []
      size = 0
    }
    group.push(page)
    size += page.chunks.length
  }
  if (group.length > 0) groups.push(group)
  return groups
}

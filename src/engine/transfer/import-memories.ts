import type { ImportOptions, ImportReport, Relation, RememberResult } from '../../core/types.ts'
import { validateVector } from '../../core/validate.ts'
import type { EngineContext } from '../engine-context.ts'
import { locked } from '../lifecycle.ts'
import type { PreparedWrite } from '../prepare.ts'
import { putEdge } from '../relations.ts'
import { checkImportOptions } from './import-options.ts'
import { importPage, type PageImportDeps } from './import-pages.ts'
import { parseImport } from './parse-import.ts'

/** What an import needs from the writer: its batch write path, ids, the backfill. */
export interface ImportDeps extends PageImportDeps {
  /** One batch through the write path (dedup, embed, one transaction), inside the queue. */
  write: (batch: PreparedWrite[]) => Promise<RememberResult[]>
}

/**
 * `importMemories`: the whole file parsed and checked first (`parseImport`; nothing is written
 * for a bad line), then the lines that are not page chunks in batches of `batchSize` (each all
 * or nothing), then each page whole in a transaction of its own (`importPage`), then the
 * relations between what the file brought, by where each memory landed. Emits `import`
 * progress after each batch and each page.
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
      await ctx.queue.run(() => deps.write(batch)),
    )
    done += batch.length
    ctx.emit({ type: 'import', done, total })
  }
  for (const page of parsed.pages) {
    tally(
      page.chunks.map((c) => c.write.id),
      await importPage(ctx, page, deps),
    )
    done += page.chunks.length
    ctx.emit({ type: 'import', done, total })
  }
  if (parsed.relations.length > 0) await importRelations(ctx, parsed.relations, landed)
  return report
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

/** The file's edges between memories it brought (or found stored), by where each landed. */
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
  await ctx.queue.run(() =>
    locked(ctx, () =>
      ctx.transact(async () => {
        for (const edge of edges) await putEdge(ctx.db, edge, edge.createdAt)
      }),
    ),
  )
}

import type { Memory, Relation, VerifyReport } from '../../core/types.ts'
import { storedKeys, type VectorRow } from '../../storage/index.ts'
import { unreadableIn, withUnreadable } from '../at-rest/unreadable-rows.ts'
import type { EngineContext } from '../engine-context.ts'
import { withBrokenPages } from '../pages/check-pages.ts'
import { inWriteTurn } from '../write/index.ts'
import type { IndexSet } from './index-set.ts'

/** The fields the indexes and recall filters read: a catalogue row must match its table row. */
function indexedFields(m: Memory): string {
  return JSON.stringify([
    m.namespace,
    m.type,
    m.text,
    m.aliases,
    m.tags,
    m.trust,
    m.flags,
    m.expiresAt ?? null,
  ])
}

/**
 * Compares the derived indexes with the `memories` and `vectors` rows read in one transaction.
 * A catalogue row that differs from its table row in an indexed field is reported as missing
 * from the keyword index (its current version is). Vectors of another model are expected to be
 * absent from the vector index; a vector whose memory is gone is an orphan, and so is a relation
 * with an end gone.
 *
 * @example
 * compareIndexes(indexes, memories, vectors, 'Xenova/bge-small-en-v1.5').ok
 * // => true
 */
export function compareIndexes(
  indexes: IndexSet,
  memories: Memory[],
  vectorRows: VectorRow[],
  model: string | undefined,
  relations: readonly Relation[] = [],
): VerifyReport {
  const { catalogue, keyword } = indexes
  const memorySet = new Set(memories.map((m) => m.id))
  const currentVectorIds = new Set(vectorRows.filter((v) => v.model === model).map((v) => v.id))
  const keywordIds = new Set(keyword.ids())
  const vectorIds = new Set(indexes.vectors?.ids() ?? [])
  const stale = memories.filter((m) => {
    const held = catalogue.get(m.id)
    return held !== undefined && indexedFields(held) !== indexedFields(m)
  })
  const report: VerifyReport = {
    ok: false,
    memories: memorySet.size,
    vectors: vectorRows.length,
    keywordEntries: keywordIds.size,
    vectorEntries: vectorIds.size,
    missingFromKeyword: [
      ...memories.filter((m) => !keywordIds.has(m.id) || !catalogue.has(m.id)).map((m) => m.id),
      ...stale.map((m) => m.id),
    ],
    extraInKeyword: [...new Set([...keywordIds, ...catalogue.keys()])].filter(
      (id) => !memorySet.has(id),
    ),
    missingFromVectors: [...currentVectorIds].filter(
      (id) => memorySet.has(id) && !vectorIds.has(id),
    ),
    extraInVectors: [...vectorIds].filter((id) => !currentVectorIds.has(id)),
    orphanVectors: vectorRows.filter((v) => !memorySet.has(v.id)).map((v) => v.id),
    orphanRelations: relations
      .filter((r) => !memorySet.has(r.from) || !memorySet.has(r.to))
      .map((r) => ({ from: r.from, to: r.to, kind: r.kind })),
  }
  report.ok =
    report.missingFromKeyword.length === 0 &&
    report.extraInKeyword.length === 0 &&
    report.missingFromVectors.length === 0 &&
    report.extraInVectors.length === 0 &&
    report.orphanVectors.length === 0 &&
    report.orphanRelations.length === 0
  return report
}

/**
 * Checks that the indexes agree with the tables, and that every page's chunks still make up
 * the page stored (`pages/check-pages.ts`). A read, not a write unit: it takes a turn in the
 * write queue under the lock (`inWriteTurn`), and reads the tables in one transaction together
 * with the change log past the indexes' last seq, which it applies from the rows it read: the
 * check sees one consistent moment even while a writer outside the lock (a tab without Web
 * Locks) keeps committing.
 */
export function verifyIndexes(ctx: EngineContext): Promise<VerifyReport> {
  const { db } = ctx
  return inWriteTurn(ctx, async () => {
    for (let attempt = 1; ; attempt++) {
      const after = ctx.upkeep.lastSeq
      const tables = [db.memories, db.vectors, db.changes, db.relations]
      const read = await db.transaction('r', tables, async () => {
        const changes = await db.changes.where('seq').above(after).toArray()
        const oldest = await db.changes.orderBy('seq').first()
        const [memories, vectors, relations, memoryKeys, vectorKeys] = await Promise.all([
          db.memories.toArray(),
          db.vectors.toArray(),
          db.relations.toArray(),
          // Keys only, read past encryption at rest: a stored row missing from the rows
          // above did not open (`at-rest/unreadable-rows.ts`).
          db.atRest.encrypted ? storedKeys(db, db.memories) : [],
          db.atRest.encrypted ? storedKeys(db, db.vectors) : [],
        ])
        const unreadable = [
          ...unreadableIn('memories', memoryKeys, memories),
          ...unreadableIn('vectors', vectorKeys, vectors),
        ]
        return { changes, oldest, memories, vectors, relations, unreadable }
      })
      const { changes, oldest, memories, vectors, relations, unreadable } = read
      const pruned = changes.length > 0 && oldest && oldest.seq! > after + 1
      if (pruned && attempt < 3) {
        await ctx.upkeep.rebuild() // the log no longer reaches back to this engine: read again
        continue
      }
      ctx.upkeep.apply(
        changes,
        new Map(memories.map((m) => [m.id, m])),
        new Map(vectors.map((v) => [v.id, v])),
      )
      const report = compareIndexes(ctx.indexes, memories, vectors, ctx.embedder?.model, relations)
      return withBrokenPages(withUnreadable(report, unreadable), memories)
    }
  })
}

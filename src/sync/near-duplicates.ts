import { vectorFromBase64 } from '../core/vector/base64.ts'
import { foldInto } from './merge.ts'
import type { ForgetPayload, MemoryPayload } from './payload.ts'
import { openDoc, readWinners, type SyncContext, sealDoc, sealTombstone } from './sync-context.ts'
import type { InboundPlan } from './sync-types.ts'

/**
 * Folds remote memories that are new here but nearly repeat a local one (cosine at or above
 * `ctx.nearDuplicate` in the same namespace and type): two devices wrote the same fact in other
 * words. The smaller document id wins on every device, so both keep the same memory; the loser
 * is forgotten and its confirmations counted for the winner (`foldInto`). Needs a vector: the
 * remote one when it comes from this device's model, else one embedded here; with no model
 * ready the memory is stored as is. Page chunks are never folded (a page stays whole).
 */
export async function foldNearDuplicates(ctx: SyncContext, plan: InboundPlan): Promise<void> {
  const { replica } = ctx
  for (const [index, incoming] of plan.puts.entries()) {
    const { row } = incoming.payload
    // An earlier text kept beside the one that won an edit is meant to be near its successor.
    if (incoming.payload.kept !== undefined) continue
    // A page's chunks are never folded: a section two pages share (a footer, a code block)
    // would be cut out of the page that arrives second.
    if (row.pageId !== undefined) continue
    const same = replica.idForKey(row)
    let near: { id: string; similarity: number } | undefined
    if (same !== undefined) {
      // The same text under another document (edited to what another device wrote afresh).
      const mapped = ctx.docs.docOf(same)
      if (mapped === undefined || mapped === incoming.docId || ctx.docs.hasDoc(incoming.docId))
        continue
      near = { id: same, similarity: 1 }
    } else {
      const brought = incoming.payload.vector
      const vector =
        brought && brought.model === replica.model
          ? vectorFromBase64(brought.data)
          : await replica.embed(row.text)
      if (!vector) continue
      incoming.vector = vector
      near = replica.nearest(vector, row, undefined)
    }
    if (!near || near.similarity < ctx.nearDuplicate) continue
    const otherDoc = ctx.docs.docOf(near.id)
    if (otherDoc === undefined || otherDoc === incoming.docId) continue
    const winners = await readWinners(ctx, [otherDoc, incoming.docId])
    const other = winners.get(otherDoc)
    if (!other?.doc) continue
    const otherPayload = await openDoc(ctx, other.doc)
    const now = Date.now()
    if (incoming.docId < otherDoc) {
      incoming.payload = foldInto(incoming.payload, otherDoc, otherPayload)
      const mine = winners.get(incoming.docId)
      plan.writes.push(
        await sealDoc(ctx, incoming.docId, incoming.payload, mine?.doc ? mine.rev : undefined),
        await sealTombstone(ctx, otherDoc, forgetOf(otherPayload, now), other.rev),
      )
      plan.forgets.push(otherDoc)
    } else {
      const folded = foldInto(otherPayload, incoming.docId, incoming.payload)
      const mine = winners.get(incoming.docId)
      plan.writes.push(await sealDoc(ctx, otherDoc, folded, other.rev))
      if (mine?.doc) {
        const forget = forgetOf(incoming.payload, now)
        plan.writes.push(await sealTombstone(ctx, incoming.docId, forget, mine.rev))
      }
      plan.puts[index] = { docId: otherDoc, payload: folded }
    }
    ctx.status.nearDuplicates++
  }
}

/** The forget of a folded loser: it has seen the loser's version, so it wins over it anywhere. */
function forgetOf(loser: MemoryPayload, at: number): ForgetPayload {
  return { t: 'forget', at, vv: loser.vv ?? {}, prev: [] }
}

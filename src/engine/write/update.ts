import { InvalidInputError, MemoryNotFoundError } from '../../core/errors.ts'
import { WRITE_ATTEMPTS } from '../../core/options.ts'
import type { Memory } from '../../core/types.ts'
import { validateHappened } from '../../core/validate.ts'
import type { EngramDatabase } from '../../storage/index.ts'
import { STALE } from './commit.ts'
import { type PreparedPatch, screen, screenedText } from './prepare.ts'
import type { WriteAttempt } from './run-write.ts'

/** What an update needs from the engine. */
export interface UpdateContext {
  db: EngramDatabase
  /** The current model, whose vectors the indexes hold; null without one. */
  model: string | null
  now: number
  /** A passage vector, or undefined when no model is ready or embedding failed. */
  embed: (text: string) => Promise<Float32Array | undefined>
}

/** A committed update: the new row, its vector when it changed or moved, and the change seq. */
export interface Updated {
  memory: Memory
  /** A vector for the indexes to take (new text, or the same vector under a new type). */
  vector?: Float32Array
  /** The text changed and no vector could be made: the backfill embeds it. */
  dropVector: boolean
  seq: number
}

/** The fields the poison screen reads (see `screenedText`): changing one screens the memory again. */
const SCREENED = ['text', 'aliases', 'tags', 'source', 'type', 'meta'] as const

/** Vectors embedded for this update, by text; null where embedding was tried and gave none. */
type Embedded = Map<string, Float32Array | null>

/**
 * Applies a patch as a read-modify-write inside one transaction, so an update made meanwhile by
 * another tab (with or without a shared lock) is kept, not overwritten. Embedding cannot happen
 * inside a transaction: a new text is embedded first (`prepare`), against the row as it was
 * read, and if the row's text changed before the transaction (so the patched text needs a vector
 * nobody made yet), the try is stale and the update embeds again; on the last of
 * `WRITE_ATTEMPTS` tries it stores no vector and the backfill embeds the text that won.
 * `context` is read once, at the first try.
 */
export function updateAttempt(
  context: () => UpdateContext,
  id: string,
  patch: PreparedPatch,
): WriteAttempt<UpdateContext, Memory> {
  const embedded: Embedded = new Map()
  let held: UpdateContext | undefined
  return {
    prepare: async () => {
      held ??= context()
      const ctx = held
      const current = await ctx.db.memories.get(id)
      if (!current) throw new MemoryNotFoundError(id)
      assertNotChunk(current)
      // Rejects a poisoned or clashing patch before spending time on embedding it.
      const draft = patchRow(current, patch, ctx.now)
      await assertNoClash(ctx.db, draft, current)
      if (draft.text !== current.text && !embedded.has(draft.text)) {
        embedded.set(draft.text, (await ctx.embed(draft.text)) ?? null)
      }
      return ctx
    },
    commit: async (ctx, attempt) => {
      const updated = await commitUpdate(ctx, id, patch, embedded, attempt >= WRITE_ATTEMPTS)
      if (!updated) return STALE
      return {
        result: updated.memory,
        seqs: [updated.seq],
        stored: [updated],
        unembedded: updated.dropVector,
      }
    },
  }
}

/**
 * The patch applied to `row` at time `now`: fields replaced, `null` clearing an optional
 * field, the interval of happening checked whole (`BAD_OPTION`), and the
 * poison screen run again over the patched memory when the patch changes a field it screens
 * (the flags stored are the patched memory's). Pure; throws `RejectedMemoryError` under
 * `reject`.
 */
export function patchRow(row: Memory, patch: PreparedPatch, now: number): Memory {
  const { poison = 'reject', key, expiresAt, summary, happenedAt, happenedUntil, ...fields } = patch
  const next: Memory = { ...row, ...fields, updatedAt: now }
  if (key !== undefined) next.key = key
  setOrClear(next, 'summary', summary)
  setOrClear(next, 'expiresAt', expiresAt)
  setOrClear(next, 'happenedAt', happenedAt)
  setOrClear(next, 'happenedUntil', happenedUntil)
  validateHappened(next.happenedAt, next.happenedUntil, 'patch.')
  if (SCREENED.some((field) => fields[field] !== undefined) || typeof summary === 'string') {
    next.flags = screen(screenedText(next), poison, 'patch')
  }
  return next
}

/** A patch's value for an optional field: `null` removes it, `undefined` leaves it. */
function setOrClear<K extends 'summary' | 'expiresAt' | 'happenedAt' | 'happenedUntil'>(
  row: Memory,
  field: K,
  value: Memory[K] | null | undefined,
): void {
  if (value === null) delete row[field]
  else if (value !== undefined) row[field] = value as Memory[K]
}

/**
 * Inside the transaction of an update: re-reads the row, applies the patch to it, checks the
 * dedup key is free and writes the row, its vector and a change entry. Returns undefined, having
 * written nothing, when the patched text needs a vector that `embedded` lacks (unless `last`).
 */
async function commitUpdate(
  ctx: UpdateContext,
  id: string,
  patch: PreparedPatch,
  embedded: Embedded,
  last: boolean,
): Promise<Updated | undefined> {
  const { db } = ctx
  const latest = await db.memories.get(id)
  if (!latest) throw new MemoryNotFoundError(id)
  assertNotChunk(latest)
  const next = patchRow(latest, patch, ctx.now)
  await assertNoClash(db, next, latest)
  let vector: Float32Array | undefined
  let dropVector = false
  if (next.text !== latest.text) {
    if (!embedded.has(next.text) && !last) return undefined
    vector = embedded.get(next.text) ?? undefined
    dropVector = !vector
  } else if (next.type !== latest.type) {
    // The vector is filed under namespace+type in the index: it moves with the memory.
    const row = await db.vectors.get(id)
    if (row && row.model === ctx.model) vector = row.vector
  }
  await db.memories.put(next)
  if (dropVector) await db.vectors.delete(id)
  else if (vector && next.text !== latest.text) {
    await db.vectors.put({ id, model: ctx.model!, dims: vector.length, vector })
  }
  const seq = await db.changes.add({ op: 'put', id, at: next.updatedAt })
  return vector ? { memory: next, vector, dropVector, seq } : { memory: next, dropVector, seq }
}

/**
 * Throws `PAGE_CHUNK` for a chunk of a page: its text is a slice of the page at fixed offsets,
 * so a patched chunk would no longer reassemble; the page changes through `pages.remember`.
 */
function assertNotChunk(row: Memory): void {
  if (row.pageId === undefined) return
  throw new InvalidInputError(
    'PAGE_CHUNK',
    'id',
    `expected a memory that is not part of a page, got chunk ${row.chunk ?? '?'} of page ${row.pageId}: change the page with rememberPage({ pageId: '${row.pageId}', ... })`,
  )
}

/** Throws `DUPLICATE_TEXT` when a new key or type makes `next` say what another memory says. */
async function assertNoClash(db: EngramDatabase, next: Memory, before: Memory): Promise<void> {
  if (next.key === before.key && next.type === before.type) return
  const clash = await db.memories
    .where('[namespace+type+key]')
    .equals([next.namespace, next.type, next.key])
    .first()
  if (clash && clash.id !== next.id) {
    throw new InvalidInputError(
      'DUPLICATE_TEXT',
      'patch.text',
      `memory ${clash.id} already says this`,
    )
  }
}

import type { SyncRefusal, SyncStatus } from '../core/types.ts'
import type { Replica } from '../engine/replica/index.ts'
import type { EdgeState } from './edge-state.ts'
import type { Ledger } from './ledger.ts'
import type { ForgetPayload, MemoryPayload } from './payload.ts'
import type { PouchDatabase } from './pouch.ts'
import { type SealedFields, seal, unseal } from './sealed.ts'
import type { SyncKeys } from './sync-keys.ts'

/** Which replicated document each local memory is, both ways. Local ids differ per device. */
export class DocMap {
  readonly #docOf = new Map<string, string>()
  readonly #localOf = new Map<string, string>()

  docOf(localId: string): string | undefined {
    return this.#docOf.get(localId)
  }

  localOf(docId: string): string | undefined {
    return this.#localOf.get(docId)
  }

  set(localId: string, docId: string): void {
    const previous = this.#docOf.get(localId)
    if (previous !== undefined && this.#localOf.get(previous) === localId)
      this.#localOf.delete(previous)
    this.#docOf.set(localId, docId)
    this.#localOf.set(docId, localId)
  }

  dropLocal(localId: string): void {
    const doc = this.#docOf.get(localId)
    this.#docOf.delete(localId)
    if (doc !== undefined && this.#localOf.get(doc) === localId) this.#localOf.delete(doc)
  }

  hasDoc(docId: string): boolean {
    return this.#localOf.has(docId)
  }

  /** Every local id with its document, to keep across restarts. */
  entries(): Record<string, string> {
    return Object.fromEntries(this.#docOf)
  }
}

/** What the sync stages share: the engine's hooks, the mirror, the keys and the counters. */
export interface SyncContext {
  replica: Replica
  mirror: PouchDatabase
  keys: SyncKeys
  /** This device's id in grow-only counters; random, kept in the mirror. */
  device: string
  vectors: boolean
  nearDuplicate: number
  docs: DocMap
  /** The relations replicated, and those waiting for their ends. */
  edges: EdgeState
  /** The version of each document this device last accepted. */
  ledger: Ledger
  /** Larger sealed documents are refused unopened. */
  maxDocumentBytes: number
  status: SyncStatus
}

/** A live sealed document in the mirror. */
export type SealedDoc = SealedFields & { _id: string; _rev?: string }

/** A forgotten document: a sealed {@link ForgetPayload}, so the server cannot forge one. */
export type Tombstone = SealedFields & { _id: string; _rev?: string; _deleted: true }

/** The current winning revision of a document in the mirror. */
export interface Winner {
  rev: string
  deleted: boolean
  doc?: SealedDoc
}

/** Document ids that name memories (the keycheck and design documents are left alone). */
export function isMemoryDoc(id: string): boolean {
  return id.startsWith('m:')
}

/** The winning revisions of `ids` in the mirror (absent: never seen). */
export async function readWinners(
  ctx: SyncContext,
  ids: readonly string[],
): Promise<Map<string, Winner>> {
  const out = new Map<string, Winner>()
  if (ids.length === 0) return out
  const res = await ctx.mirror.allDocs({ keys: [...ids], include_docs: true })
  for (const row of res.rows) {
    if (!('value' in row) || !row.value) continue
    const deleted = Boolean((row.value as { deleted?: boolean }).deleted)
    const winner: Winner = { rev: row.value.rev, deleted }
    if (!deleted && row.doc) winner.doc = row.doc as unknown as SealedDoc
    out.set(row.id, winner)
  }
  return out
}

export async function openDoc(ctx: SyncContext, doc: SealedDoc): Promise<MemoryPayload> {
  return unseal<MemoryPayload>(ctx.keys, doc._id, doc)
}

/**
 * The payload of a sealed document when it opens and `isPayload` accepts it, else undefined,
 * the refusal counted in the status: one bad document never stops a pass.
 */
export async function openChecked<T>(
  ctx: SyncContext,
  doc: SealedDoc,
  isPayload: (payload: T | undefined) => boolean,
  what: string,
  quiet = false,
): Promise<T | undefined> {
  if (typeof doc.ct === 'string' && doc.ct.length > ctx.maxDocumentBytes) {
    if (!quiet)
      refuse(ctx, doc._id, 'oversized', `${doc.ct.length} bytes, above ${ctx.maxDocumentBytes}`)
    return undefined
  }
  try {
    const payload = await unseal<T>(ctx.keys, doc._id, doc)
    if (!isPayload(payload)) throw new TypeError(`not ${what}`)
    return payload
  } catch (error) {
    if (!quiet)
      refuse(ctx, doc._id, 'tampered', `its seal does not open: ${(error as Error).message}`)
    return undefined
  }
}

/**
 * The sealed forget of a deleted revision, or undefined for one the server made (a `DELETE`,
 * a forged time): counted as a refused `deletion`.
 */
export async function openTombstone(
  ctx: SyncContext,
  doc: Partial<Tombstone> & { _id: string },
  quiet = false,
): Promise<ForgetPayload | undefined> {
  try {
    if (typeof doc.ct !== 'string' || typeof doc.iv !== 'string') throw new TypeError('no seal')
    if (doc.ct.length > ctx.maxDocumentBytes) throw new TypeError('oversized')
    const payload = await unseal<ForgetPayload>(ctx.keys, doc._id, doc as SealedFields)
    if (payload?.t !== 'forget' && payload?.t !== 'drop') throw new TypeError('not a forget')
    return payload
  } catch (error) {
    if (!quiet)
      refuse(
        ctx,
        doc._id,
        'deletion',
        `a deletion it cannot authenticate (${(error as Error).message})`,
      )
    return undefined
  }
}

/** Counts a refused document and reports it as the last error; the local copy stays. */
export function refuse(ctx: SyncContext, docId: string, kind: SyncRefusal, why: string): void {
  ctx.status.refused[kind]++
  ctx.status.error = {
    name: 'SyncDocumentError',
    code: kind,
    message: `document ${docId} refused (${kind}): ${why}`,
  }
}

/** A sealed tombstone over revision `rev`. */
export async function sealTombstone(
  ctx: SyncContext,
  docId: string,
  forget: ForgetPayload,
  rev: string | undefined,
): Promise<Tombstone> {
  const sealed = await seal(ctx.keys, docId, forget)
  const doc: Tombstone = { _id: docId, _deleted: true, ...sealed }
  if (rev) doc._rev = rev
  return doc
}

export async function sealDoc(
  ctx: SyncContext,
  docId: string,
  payload: MemoryPayload,
  rev?: string,
): Promise<SealedDoc> {
  const sealed = await seal(ctx.keys, docId, payload)
  return rev ? { _id: docId, _rev: rev, ...sealed } : { _id: docId, ...sealed }
}

/**
 * Writes documents to the mirror; returns how many landed, whether any hit a conflict, and the
 * new revision of each that landed (by position).
 */
export async function writeDocs(
  ctx: SyncContext,
  docs: readonly (SealedDoc | Tombstone)[],
): Promise<{ written: number; conflicted: boolean; revs: (string | undefined)[] }> {
  if (docs.length === 0) return { written: 0, conflicted: false, revs: [] }
  const results = (await ctx.mirror.bulkDocs(
    docs as unknown as PouchDB.Core.PutDocument<Record<string, unknown>>[],
  )) as (PouchDB.Core.Response | PouchDB.Core.Error)[]
  const revs = results.map((r) => ('ok' in r && r.ok ? r.rev : undefined))
  return {
    written: revs.filter((r) => r !== undefined).length,
    conflicted: results.some((r) => 'error' in r && r.status === 409),
    revs,
  }
}

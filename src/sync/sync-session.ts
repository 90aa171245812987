import { EngramError, errorToData, SyncServerError } from '../core/errors.ts'
import { startingSyncStatus } from '../core/sync-status.ts'
import type { SyncHandle, SyncStatus } from '../core/types.ts'
import type { MemoryEngine } from '../engine/memory-engine.ts'
import type { Replica } from '../engine/replica/index.ts'
import { loadEdges, newEdgeState, pushEdges } from './edges.ts'
import { KEYCHECK_ID, openKeys } from './keycheck.ts'
import { Ledger } from './ledger.ts'
import { Pouch, type PouchDatabase } from './pouch.ts'
import { pullBatch } from './pull-remote.ts'
import { pushLocal, type SyncCursor } from './push-local.ts'
import { ensureDatabase, remoteDatabase } from './remote-database.ts'
import { DocMap, type SyncContext } from './sync-context.ts'
import { memoryDocId } from './sync-keys.ts'
import {
  checkSyncOptions,
  type ResolvedSyncOptions,
  type StartSyncOptions,
} from './sync-options.ts'

const CURSOR_ID = '_local/engram-sync-cursor'
/** Polls between the looks for local relation changes (a table scan, so not every poll). */
const EDGE_POLL_TICKS = 8
const DEVICE_ID = '_local/engram-sync-device'
/**
 * Which document each local memory is. Kept, not recomputed from the dedup key, because a
 * memory keeps its document when its text is edited: the document is the memory's lineage.
 */
const DOCS_ID = '_local/engram-sync-docs'

/**
 * Starts syncing `engine` with a CouchDB-protocol server, end to end encrypted: each memory
 * becomes one sealed document whose id is a keyed hash of its dedup identity, held in a local
 * PouchDB mirror that PouchDB's replicator keeps in step with the server. Resolves once the keys
 * are checked and the first local pass is done.
 *
 * @throws InvalidInputError `BAD_OPTION` for bad options; SyncKeyError (`WRONG_KEY`) when the
 *   passphrase or key does not match the server's, before anything is written; SyncServerError
 *   when the server cannot be reached on first use.
 * @example
 * const sync = await startSync(engine, { url: 'https://couch.example/alice', passphrase })
 * await sync.stop()
 */
export async function startSync(
  engine: MemoryEngine,
  options: StartSyncOptions,
): Promise<SyncHandle> {
  const resolved = checkSyncOptions(options)
  const session = new SyncSession(engine.replica, resolved, `engram-sync:${engine.name}`)
  await session.start()
  return session
}

class SyncSession implements SyncHandle {
  readonly #replica: Replica
  readonly #options: ResolvedSyncOptions
  readonly #ownMirror: boolean
  readonly #mirror: PouchDatabase
  readonly #remote: PouchDatabase
  readonly #listeners = new Set<(status: SyncStatus) => void>()
  #status: SyncStatus = startingSyncStatus()
  #ctx: SyncContext | undefined
  #cursor: SyncCursor = { local: 0, mirror: 0 }
  #cursorRev: string | undefined
  #docsRev: string | undefined
  #docsSaved = ''
  #running: Promise<number> = Promise.resolve(0)
  #dirty = false
  #stopped = false
  #replication: PouchDB.Replication.Sync<Record<string, unknown>> | undefined
  #feed: PouchDB.Core.Changes<Record<string, unknown>> | undefined
  #poll: ReturnType<typeof setInterval> | undefined
  #finish!: (status: SyncStatus) => void
  #fail!: (error: unknown) => void
  readonly done: Promise<SyncStatus>

  constructor(replica: Replica, options: ResolvedSyncOptions, mirrorName: string) {
    this.#replica = replica
    this.#options = options
    this.#ownMirror = !options.mirror
    this.#mirror =
      (options.mirror as PouchDatabase | undefined) ??
      new Pouch(mirrorName, { adapter: 'indexeddb' })
    this.#remote = remoteDatabase(options, true)
    this.done = new Promise((resolve, reject) => {
      this.#finish = resolve
      this.#fail = reject
    })
    // A one-shot caller that never awaits `done` must not see an unhandled rejection.
    this.done.catch(() => {})
  }

  get status(): SyncStatus {
    return { ...this.#status }
  }

  on(listener: (status: SyncStatus) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  async start(): Promise<void> {
    const o = this.#options
    await ensureDatabase(o)
    const keys = await openKeys(
      o.secret,
      {
        mirror: this.#mirror,
        remote: this.#remote,
        cache: () => this.#remote.replicate.to(this.#mirror, { doc_ids: [KEYCHECK_ID] }),
      },
      o.kdfIterations,
    )
    const device = await this.#deviceId()
    await this.#loadCursor()
    const docs = await this.#loadDocs()
    const all = await this.#replica.allRows(false)
    for (const row of all.rows.values()) {
      if (docs.docOf(row.id) === undefined) docs.set(row.id, await memoryDocId(keys, row))
    }
    this.#ctx = {
      replica: this.#replica,
      mirror: this.#mirror,
      keys,
      device,
      vectors: o.vectors,
      // The local model's threshold: cosines have a scale per model (USE .95, n-gram .97).
      nearDuplicate: o.nearDuplicate ?? this.#replica.nearDuplicate,
      docs,
      edges: newEdgeState(),
      ledger: await Ledger.load(this.#mirror),
      maxDocumentBytes: o.maxDocumentBytes,
      status: this.#status,
    }
    await loadEdges(this.#ctx, this.#cursor)
    await this.#step()
    if (o.live) this.#startLive()
    else void this.#runOnce()
  }

  /**
   * A step, then (live) a push to the server and back: rejects with `SyncServerError` while the
   * server cannot be reached, so a caller never takes an outage for a flushed sync.
   */
  async flush(): Promise<void> {
    await this.#step()
    if (!this.#options.live || this.#stopped) return
    try {
      await this.#mirror.replicate.to(this.#remote)
      await this.#remote.replicate.to(this.#mirror)
    } catch (error) {
      throw this.#unreachable(error)
    }
    this.#reached()
    await this.#step()
  }

  /** The server cannot be reached: said in the status (`paused` while live), as the error. */
  #unreachable(error: unknown): SyncServerError {
    const failure = new SyncServerError(
      `could not reach ${this.#options.url}: ${(error as Error)?.message ?? error}`,
      { cause: error },
    )
    if (!this.#stopped) this.#set({ state: 'paused', error: errorToData(failure) })
    return failure
  }

  /** The server answered again: an outage error no longer stands. */
  #reached(): void {
    if (this.#status.error?.code === 'SYNC_SERVER') delete this.#status.error
  }

  async compact(): Promise<void> {
    await this.#remote.compact()
    await this.#mirror.compact()
  }

  async stop(): Promise<void> {
    if (this.#stopped) return
    await this.#halt()
    this.#set({ state: 'stopped' })
    this.#finish(this.status)
  }

  /**
   * The sync cannot go on (the server refused it, a pass failed): it ends as `stop()` ends it,
   * then the last status is `error` and `done` rejects, live or one-shot alike.
   */
  async #giveUp(error: unknown): Promise<void> {
    if (this.#stopped) return
    await this.#halt()
    const failure =
      error instanceof EngramError
        ? error
        : new SyncServerError(`the sync stopped: ${(error as Error)?.message ?? error}`, {
            cause: error,
          })
    this.#set({ state: 'error', error: errorToData(failure) })
    this.#fail(failure)
  }

  /** Ends replicating and polling, waits for the step in progress and saves the cursor. */
  async #halt(): Promise<void> {
    this.#stopped = true
    clearInterval(this.#poll)
    this.#replication?.cancel()
    this.#feed?.cancel()
    await this.#running.catch(() => {})
    await this.#saveCursor().catch(() => {})
    if (this.#ownMirror) await this.#mirror.close().catch(() => {})
  }

  /** Live mode: the replicator runs continuously; local writes are noticed by polling the seq. */
  #startLive(): void {
    const o = this.#options
    this.#replication = this.#mirror
      .sync(this.#remote, {
        live: true,
        retry: true,
        back_off_function: (delay: number) => Math.min(o.maxRetryMs, delay === 0 ? 100 : delay * 2),
      })
      .on('change', (info) => this.#counted(info.direction, info.change.docs.length))
      .on('active', () => {
        this.#reached()
        this.#set({ state: 'active' })
      })
      .on('paused', (error?: unknown) => {
        if (error) this.#status.error = errorToData(error as Error)
        this.#set({ state: 'paused' })
      })
      // Only what retrying cannot mend reaches here (401/403): the sync is over.
      .on('error', (error) => void this.#giveUp(error))
    // The two-way wrapper drops the error its halves pause with: an outage would read as caught
    // up. Each half says so itself.
    const halves = this.#replication as unknown as {
      push?: PouchDB.Replication.Replication<Record<string, unknown>>
      pull?: PouchDB.Replication.Replication<Record<string, unknown>>
    }
    for (const half of [halves.push, halves.pull]) {
      half?.on('paused', (error?: unknown) => {
        if (error) this.#unreachable(error)
      })
    }
    this.#feed = this.#mirror.changes({ since: 'now', live: true }).on('change', (change) => {
      if (!change.id.startsWith('_local/')) this.#schedule()
    })
    let ticks = 0
    this.#poll = setInterval(() => {
      // Every EDGE_POLL_TICKS-th look also runs a step for relate/unrelate, which log no seq.
      if (this.#replica.seq !== this.#cursor.local || ++ticks % EDGE_POLL_TICKS === 0)
        this.#schedule()
    }, o.pollMs)
    ;(this.#poll as { unref?: () => void }).unref?.()
  }

  /** One-shot mode: replicate both ways, apply, repeat while applying wrote merges to push. */
  async #runOnce(): Promise<void> {
    try {
      for (let round = 0; round < 5 && !this.#stopped; round++) {
        const result = await this.#mirror.sync(this.#remote)
        this.#counted('push', result.push?.docs_written ?? 0)
        this.#counted('pull', result.pull?.docs_written ?? 0)
        const wrote = await this.#step()
        if (wrote === 0) break
      }
    } catch (error) {
      await this.#giveUp(error)
      return
    }
    // A stop() during the passes has ended the sync already.
    if (this.#stopped) return
    await this.#halt()
    this.#set({ state: 'complete' })
    this.#finish(this.status)
  }

  /** A step after the one in progress; repeated calls while one waits share it. */
  #schedule(): void {
    if (this.#dirty || this.#stopped) return
    this.#dirty = true
    void this.#step().catch(() => {})
  }

  /** Local writes into the mirror, then mirror changes into the engine, until neither has more. */
  #step(): Promise<number> {
    const next = this.#running
      .catch(() => 0)
      .then(async () => {
        this.#dirty = false
        const ctx = this.#ctx!
        // The engine's log restarted below the cursor (site data cleared): start both over.
        if (this.#replica.seq < this.#cursor.local) this.#cursor = { local: 0, mirror: 0 }
        let wrote = 0
        try {
          for (;;) {
            const pushed = await pushLocal(ctx, this.#cursor)
            const pulled = await pullBatch(ctx, this.#cursor, this.#cursor.local)
            wrote += pushed.written + pulled.writes
            // Done only once a push read nothing and a pull brought nothing: a local write (the
            // backfill's, another tab's) that landed during a pull may have held back an inbound
            // change for its memory, and the next push merges and applies it.
            if (pushed.seen === 0 && pulled.seen === 0) break
          }
          // Relations log no changes: each step compares the table with what was replicated.
          wrote += await pushEdges(ctx)
          await this.#saveCursor()
          this.#emit()
        } catch (error) {
          this.#set({ error: errorToData(error as Error) })
          throw error
        }
        return wrote
      })
    this.#running = next
    return next
  }

  #counted(direction: 'push' | 'pull', written: number): void {
    if (direction === 'push') this.#status.pushed += written
    else this.#status.pulled += written
    this.#emit()
  }

  #set(change: Partial<SyncStatus>): void {
    Object.assign(this.#status, change)
    this.#emit()
  }

  #emit(): void {
    const status = this.status
    for (const listener of this.#listeners) {
      try {
        listener(status)
      } catch {
        // A listener's failure must not stop the sync.
      }
    }
  }

  async #deviceId(): Promise<string> {
    try {
      return ((await this.#mirror.get(DEVICE_ID)) as unknown as { device: string }).device
    } catch {
      const device = globalThis.crypto.randomUUID()
      await this.#mirror.put({ _id: DEVICE_ID, device })
      return device
    }
  }

  async #loadCursor(): Promise<void> {
    try {
      const doc = (await this.#mirror.get(CURSOR_ID)) as unknown as SyncCursor & { _rev: string }
      this.#cursor = { local: doc.local, mirror: doc.mirror }
      this.#cursorRev = doc._rev
    } catch {
      this.#cursor = { local: 0, mirror: 0 }
    }
  }

  async #loadDocs(): Promise<DocMap> {
    const docs = new DocMap()
    try {
      const held = (await this.#mirror.get(DOCS_ID)) as unknown as {
        _rev: string
        map: Record<string, string>
      }
      this.#docsRev = held._rev
      for (const [local, doc] of Object.entries(held.map)) docs.set(local, doc)
      this.#docsSaved = JSON.stringify(held.map)
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error
    }
    return docs
  }

  async #saveCursor(): Promise<void> {
    const ctx = this.#ctx
    if (ctx) {
      await ctx.ledger.save(this.#mirror)
      const map = ctx.docs.entries()
      const json = JSON.stringify(map)
      if (json !== this.#docsSaved) {
        const doc: Record<string, unknown> = { _id: DOCS_ID, map }
        if (this.#docsRev) doc._rev = this.#docsRev
        this.#docsRev = (await this.#mirror.put(doc)).rev
        this.#docsSaved = json
      }
    }
    const doc: Record<string, unknown> = { _id: CURSOR_ID, ...this.#cursor }
    if (this.#cursorRev) doc._rev = this.#cursorRev
    const result = await this.#mirror.put(doc)
    this.#cursorRev = result.rev
  }
}

/**
 * Multi-device sync: `memory.sync.start(options)` and the handle it returns. Not part of
 * `MemoryApi`: it is an extension every client door adds (`host/sync-extension.ts`); an engine
 * opened by itself syncs with `startSync(engine, options)` from `engram/sync`. Types only; the
 * replicator is `src/sync/` (PouchDB).
 */

/** `memory.sync`: the page half of the sync extension, on every client door. */
export interface SyncApi {
  /**
   * Syncs this memory with a CouchDB-protocol server, end to end encrypted (AES-GCM under a key
   * from `passphrase` or `key`; the server holds ciphertext and keyed-hash ids only): memories,
   * their relations, and forgets as tombstones. Resolves once the key is checked and the first
   * local pass is done. One sync at a time: a second call before the first has stopped throws
   * `SyncStateError` `SYNC_RUNNING`. A wrong passphrase throws `SyncKeyError` and changes
   * nothing; an unreachable server on first use, `SyncServerError`. `close()` stops it.
   *
   * @example
   * const sync = await memory.sync.start({ url: 'https://couch.example/alice', passphrase })
   * sync.on((s) => console.log(s.state)) // => 'active', then 'paused' once caught up
   * await sync.stop()
   */
  start(options: SyncOptions): Promise<SyncHandle>
}

/**
 * Options for `memory.sync.start()`: plain data (a `CryptoKey` is structured-cloneable), so the same
 * options start a sync in process or in the memory worker. Give exactly one of `passphrase` and
 * `key`.
 *
 * @example
 * const sync = await memory.sync.start({ url: 'https://couch.example/alice-memory', passphrase })
 * sync.on((s) => console.log(s.state, s.pushed, s.pulled))
 * // => 'active' 12 0, then 'paused' 12 0 once caught up
 */
export interface SyncOptions {
  /** The CouchDB-protocol database to sync with (CouchDB, PouchDB Server…); created if missing. */
  url: string
  /** Basic-auth credentials for the server. */
  auth?: { username: string; password: string }
  /**
   * The secret documents are sealed with, stretched by PBKDF2-SHA-256 (`kdfIterations` rounds)
   * with the salt from the server's `engram-keycheck` document. Never sent anywhere.
   */
  passphrase?: string
  /** Instead of a passphrase: an HKDF key the app manages (`importKey('raw', …, 'HKDF', …)`). */
  key?: CryptoKey
  /** Keep replicating as changes happen; false syncs once and stops (see `SyncHandle.done`). @default true */
  live?: boolean
  /**
   * Replicate vectors too. Off by default: each device embeds with its own model, and a vector
   * is only used where the model id matches. @default false
   */
  vectors?: boolean
  /**
   * PBKDF2 rounds for the first device to set up the server (later ones read them from the
   * keycheck). At least 600 000. @default 600000
   */
  kdfIterations?: number
  /**
   * Cosine at or above which two memories that devices wrote independently are one, the
   * smaller document id winning on every device. 0..1. @default the engine's `nearDuplicate`:
   *   its model's (USE 0.95, the n-gram embedder 0.97), or `retrieval.nearDuplicate` if set
   */
  nearDuplicate?: number
  /**
   * Largest sealed document accepted from the server, in bytes of ciphertext; a larger one is
   * refused unopened (`status.refused.oversized`). A memory's text, meta and vector fit well
   * under the default. 1 024.. @default 1 048 576 (1 MiB)
   */
  maxDocumentBytes?: number
  /** Milliseconds between looks at the local change log for writes to push. 10.. @default 250 */
  pollMs?: number
  /** Longest wait between retries while the server is unreachable, in ms. 10.. @default 5000 */
  maxRetryMs?: number
}

/** The states of a sync, in the order they usually come. */
export type SyncState = 'starting' | 'active' | 'paused' | 'complete' | 'stopped' | 'error'

/** Where a sync stands, as the handle's listeners see it (plain data). */
export interface SyncStatus {
  /**
   * `starting` (keys, first pass), `active` (replicating), `paused` (caught up, or offline when
   * `error` is a `SYNC_SERVER` one), `complete` (a one-shot sync finished; check `refused`),
   * `stopped`, `error` (gave up).
   */
  state: SyncState
  /** Documents written to the server / read from it, since start. */
  pushed: number
  pulled: number
  /** Local memories and relations written or removed because of remote changes. */
  applied: number
  /** Documents whose concurrent versions were merged. */
  conflicts: number
  /** Near duplicates written independently on two devices and folded into one. */
  nearDuplicates: number
  /**
   * Documents from the server refused since start, by why (see {@link SyncRefusal}): the local
   * copy stays, and a device holding a good copy writes it back over the bad one (`repaired`).
   */
  refused: Record<SyncRefusal, number>
  /** Good copies written back over refused documents. */
  repaired: number
  /** The last concurrent edit merged, as the `conflict` event reports it. */
  lastConflict?: SyncConflict
  /** The last error, as data (it may have crossed a worker boundary). */
  error?: { name: string; message: string; code?: string }
}

/**
 * Why a document from the server was refused, the local copy kept: `tampered` (its seal does not
 * open), `rollback` (an older version than this device has seen, served as new), `deletion` (a
 * deletion that carries no sealed tombstone: a server `DELETE`, a forged forget time),
 * `oversized` (above `maxDocumentBytes`).
 */
export type SyncRefusal = 'tampered' | 'rollback' | 'deletion' | 'oversized'

/**
 * Concurrent edits of one memory, merged (the `conflict` event: a status whose `lastConflict`
 * is new). `fields` are those the versions disagreed on (`text`, `tags`, `meta.<key>`…);
 * `kept` is the local id of the earlier text, kept as a memory the merged one supersedes.
 */
export interface SyncConflict {
  /** The local id of the merged memory (or of the forgotten one). */
  memory: string
  fields: string[]
  /** `merged`, or `forgotten` when a later forget won over an edit. */
  outcome: 'merged' | 'forgotten'
}

/** Hears every status change of a sync. */
export type SyncListener = (status: SyncStatus) => void

/**
 * A running sync, as `memory.sync.start()` returns it. One sync runs per memory at a time: a second
 * `sync.start()` before this one has stopped (or completed) throws `SyncStateError` `SYNC_RUNNING`.
 * Over the worker the handle lives on the page and its methods are messages to the worker.
 */
export interface SyncHandle {
  /** The status last heard (a copy). */
  readonly status: SyncStatus
  /** Calls `listener` on every status change; returns the unsubscribe function. */
  on(listener: SyncListener): () => void
  /**
   * Pushes local writes and relations into the mirror and applies what it holds, now; a live
   * sync also pushes to the server and pulls back, and rejects with `SyncServerError`
   * `SYNC_SERVER` while the server cannot be reached (the writes stay local, and go later).
   */
  flush(): Promise<void>
  /**
   * Compacts the server database and the mirror: old revisions' ciphertext goes, so a forgotten
   * memory leaves only its tombstone. Needs a server user allowed to compact (a CouchDB admin).
   */
  compact(): Promise<void>
  /** Stops replicating, waits for the step in progress and saves the cursor. */
  stop(): Promise<void>
  /**
   * Settles once the sync is over, the same in process and over the worker, live or one-shot:
   * resolves with the last status when a one-shot sync (`live: false`) is `complete` or `stop()`
   * (or closing the memory) ends it (`stopped`); rejects when the sync gives up (last status
   * `error`): `SyncServerError` `SYNC_SERVER` when the server refused it (a live sync retries an
   * unreachable server on its own; a 401 or 403 ends it), or the error a pass met (a
   * `StorageError`…). Either way the sync has stopped, and `memory.sync.start()` may start another.
   *
   * @example
   * const sync = await memory.sync.start({ url, passphrase })
   * sync.done.catch((error) => console.warn(error.code, error.message)) // 'SYNC_SERVER' …
   */
  readonly done: Promise<SyncStatus>
}

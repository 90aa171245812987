/**
 * The public contract of Engram, types only. The engine implements {@link MemoryApi}; the client
 * is a `Remote<MemoryApi>` over a worker, or the engine itself in process.
 */

import type {
  CONFIDENCE_LEVELS,
  DEGRADED_REASONS,
  LIST_NAMES,
  POISON_POLICIES,
  RECALL_MODES,
  TRUST_LEVELS,
  VIAS,
} from './vocabulary.ts'

/** What kind of memory a row is. Any string works; these are the ones Engram knows. */
export type MemoryType = 'fact' | 'skill' | 'log' | 'page' | (string & {})

/** How much the host trusts where a memory came from. Recall can be limited by it. */
export type TrustLevel = (typeof TRUST_LEVELS)[number]

/** How sure the writer was. `high` is boosted x1.2 at recall, `low` damped x0.8. */
export type Confidence = (typeof CONFIDENCE_LEVELS)[number]

/** One stored memory: the source of truth, a row of the `memories` table. */
export interface Memory {
  /** ULID: sortable by creation time. */
  id: string
  /** Separates tenants, agents or users sharing one database. @default 'default' */
  namespace: string
  type: MemoryType
  /** The text as stored: NFC, trimmed. */
  text: string
  /** Normalised text used for exact dedup: unique per namespace + type. */
  key: string
  tags: string[]
  /** Other names the memory answers to exactly (`'FH-2291'`, `'Pri'`). */
  aliases: string[]
  /** Where it came from: `'user'`, `'agent'`, `'import'`, a URL… @default 'agent' */
  source: string
  trust: TrustLevel
  confidence: Confidence
  /** Poison-screen rule codes that matched when the memory was stored flagged; empty if clean. */
  flags: string[]
  /** Epoch milliseconds. */
  createdAt: number
  updatedAt: number
  /** Last time the memory was written or re-confirmed by a duplicate write. */
  confirmedAt: number
  /** How many writes said the same thing (1 for a fresh memory). */
  confirmations: number
  recallCount: number
  lastRecalledAt?: number
  /** The memory is ignored by recall after this instant. */
  expiresAt?: number
  /** For chunks of a long page: the page's id and this chunk's position. */
  pageId?: string
  chunk?: number
  /** Free structured data kept with the memory (a session date, a speaker). Not indexed. */
  meta?: Record<string, unknown>
}

/** How a caller wants a poison-screen match handled. */
export type PoisonPolicy = (typeof POISON_POLICIES)[number]

/** Options for {@link MemoryApi.remember}. Every field is optional. */
export interface RememberOptions {
  /** @default 'default' */
  namespace?: string
  /** @default 'fact' */
  type?: MemoryType
  /** Up to 32 tags of up to 64 characters each. */
  tags?: string[]
  aliases?: string[]
  /** @default 'agent' */
  source?: string
  /** @default 'unverified' */
  trust?: TrustLevel
  /** @default 'medium' */
  confidence?: Confidence
  expiresAt?: number
  meta?: Record<string, unknown>
  /** A precomputed unit-length vector from the engine's model; skips embedding. */
  vector?: Float32Array
  /** What to do when the text looks like an injected instruction. @default 'reject' */
  poison?: PoisonPolicy
}

/** One item of {@link MemoryApi.rememberMany}. */
export interface RememberItem extends RememberOptions {
  text: string
}

/** The answer to a write. A duplicate returns the existing id and confirms that memory. */
export interface RememberResult {
  id: string
  status: 'created' | 'duplicate'
  /** How the duplicate was found: same normalised text, or a near neighbour. */
  match?: 'exact' | 'near'
  /** Cosine to the existing memory, for near duplicates. */
  similarity?: number
  /** Poison-screen rules that matched when stored flagged. */
  flags?: string[]
}

/** Fields {@link MemoryApi.update} may change. Text changes re-embed. */
export interface MemoryPatch {
  text?: string
  type?: MemoryType
  tags?: string[]
  aliases?: string[]
  source?: string
  trust?: TrustLevel
  confidence?: Confidence
  expiresAt?: number | null
  meta?: Record<string, unknown>
  poison?: PoisonPolicy
}

export type RecallMode = (typeof RECALL_MODES)[number]

/** The ranked lists fusion combines. */
export type ListName = (typeof LIST_NAMES)[number]

/** How a hit was found: by keywords, by meaning, both, an exact alias or a named tag. */
export type Via = (typeof VIAS)[number]

/** Options for {@link MemoryApi.recall}. */
export interface RecallOptions {
  /** How many hits to return, 1..100. @default 5 */
  k?: number
  /** @default 'hybrid' */
  mode?: RecallMode
  /** @default 'default' */
  namespace?: string
  /** Only these types. @default all */
  types?: MemoryType[]
  /** Only memories carrying every one of these tags. */
  tags?: string[]
  /** Relative weight of each list in fusion. @default 1 for each */
  weights?: Partial<Record<ListName, number>>
  /** Build explanations. `false` skips the work. @default true */
  explain?: boolean
  /** Only memories at least this trusted. @default 'untrusted' (all) */
  minTrust?: TrustLevel
  /** Include memories stored flagged by the poison screen. @default true (they are marked) */
  includeFlagged?: boolean
  /** Apply recency / confidence / frequency boosts. @default true */
  boosts?: boolean
  /** Write this recall to the recall log. @default true */
  log?: boolean
  /**
   * Narrows the fused candidates, e.g. an LLM judge supplied by the host. Receives the query and
   * the top `select.candidates` hits; returns the ids to keep, best first (at most
   * `select.keep`). If it throws, times out or returns nothing usable, the fused ranking stands
   * and `RecallResult.selection` says why. Over a worker, pass it wrapped in `Comlink.proxy`.
   */
  select?: SelectHook
  /** Limits for `select`. @default { candidates: 12, keep: 3, timeoutMs: 5000 } */
  selectOptions?: { candidates?: number; keep?: number; timeoutMs?: number }
}

/** A host-supplied judge that picks the hits worth keeping. */
export type SelectHook = (query: string, hits: RecallHit[]) => string[] | Promise<string[]>

/** What became of the `select` hook. */
export type SelectionOutcome = 'applied' | 'failed' | 'timeout' | 'empty'

/** One list's view of a hit. */
export interface ListEvidence {
  /** 1-based rank within the list. */
  rank: number
  /** The list's raw score: BM25, cosine, 1 for exact alias/tag hits. */
  score: number
}

/** A multiplicative boost applied after fusion. */
export interface Boost {
  name: 'recency' | 'confidence' | 'frequency'
  factor: number
}

/** One recalled memory and why it is here. */
export interface RecallHit {
  id: string
  text: string
  memory: Memory
  /** 1-based final rank. */
  rank: number
  /** Final score: the fused score times boosts. */
  score: number
  /** The fused score (score fusion or RRF, per `RetrievalOptions.fusion`) before boosts. */
  fused: number
  via: Via
  /** Each list that found this memory. */
  lists: Partial<Record<ListName, ListEvidence>>
  /** Query terms (processed) that matched the text, aliases or tags. */
  terms: string[]
  /** Cosine similarity to the query, when the vector list ran. */
  cosine?: number
  boosts: Boost[]
  /** `true` when the memory was stored flagged by the poison screen. */
  flagged: boolean
  /** One line, e.g. `matched [deploy, script] (bm25 #2) + semantic 0.81 (#1) -> fused 0.84; boosts: recency x1.2 -> #1`. Empty when `explain: false`. */
  explanation: string
}

/**
 * Why a recall could not use every list: `no-embedder` (none configured), `loading` (the model
 * is still loading), `failed` (the model could not load or embed the query), `reembedding`
 * (memories are being re-embedded for a new model). The answer then comes from the other lists.
 */
export type Degraded = (typeof DEGRADED_REASONS)[number]

export interface RecallResult {
  hits: RecallHit[]
  /** Present when a list was unavailable and the answer is partial. */
  degraded?: Degraded
  /** Wall time inside the engine, including query embedding. */
  tookMs: number
  /** Present when a `select` hook was given: whether its choice was applied. */
  selection?: SelectionOutcome
}

/** Filter and page for {@link MemoryApi.list}. */
export interface ListOptions {
  namespace?: string
  type?: MemoryType
  tag?: string
  /** @default 50, max 1000 */
  limit?: number
  /** The `cursor` of the previous page. */
  cursor?: string
}

export interface ListPage {
  items: Memory[]
  /** Pass back to get the next page; absent on the last page. */
  cursor?: string
}

export interface CountFilter {
  namespace?: string
  type?: MemoryType
}

/** What {@link MemoryApi.verify} found. `ok` is true when every count agrees and no id is missing or extra. */
export interface VerifyReport {
  ok: boolean
  memories: number
  vectors: number
  keywordEntries: number
  vectorEntries: number
  /**
   * Ids in `memories` whose keyword entry is absent or stale: missing from the keyword index or
   * the catalogue, or held there in a version whose indexed fields (namespace, type, text,
   * aliases, tags, trust, flags, expiresAt) differ from the row. An id can appear twice (absent
   * from the keyword index and stale in the catalogue).
   */
  missingFromKeyword: string[]
  /** Ids in the keyword index or the catalogue whose memory row does not exist. */
  extraInKeyword: string[]
  /** Ids with a current-model vector row but no entry in the vector index / the reverse. */
  missingFromVectors: string[]
  extraInVectors: string[]
  /** Vectors whose memory row does not exist. */
  orphanVectors: string[]
}

export interface EmbedderStats {
  model: string
  dims: number
  state: EmbedderState
  device?: string
  /** Free-form figures from the device trial, if one ran. */
  trial?: Record<string, number>
  error?: string
}

export interface MemoryStats {
  memories: number
  vectors: number
  /** Memories still waiting for a vector from the current model. */
  pendingVectors: number
  keywordEntries: number
  vectorEntries: number
  changeSeq: number
  embedder?: EmbedderStats
  /** Milliseconds the last open spent restoring indexes, and how. */
  open?: { ms: number; restored: 'snapshot' | 'rebuild' | 'empty'; replayed: number }
}

/** One entry of the recall log. */
export interface RecallLogEntry {
  id?: number
  at: number
  query: string
  options: Omit<RecallOptions, 'select'>
  hits: { id: string; rank: number; score: number; via: Via; explanation: string }[]
  degraded?: Degraded
  tookMs: number
}

/** The lifecycle of an embedder. */
export type EmbedderState = 'idle' | 'loading' | 'ready' | 'failed'

/** Whether text is embedded as a query (with the model's instruction, if any) or as a passage. */
export type EmbedKind = 'query' | 'passage'

/** Turns text into unit-length vectors. The engine depends on nothing else about it. */
export interface Embedder {
  /** Model id recorded with every vector. */
  readonly model: string
  /** Vector length; valid once `state` is `'ready'` (or always, for fixed embedders). */
  readonly dims: number
  readonly state: EmbedderState
  /** Start (or join) loading. Resolves when ready; rejects with `EmbedderUnavailableError`. */
  load(): Promise<void>
  /** Embed a batch; every returned vector is unit length and `dims` long. */
  embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]>
  stats(): EmbedderStats
  dispose?(): Promise<void>
}

/** Everything a memory can do. Every method is async so the same contract works over a worker. */
export interface MemoryApi {
  remember(text: string, options?: RememberOptions): Promise<RememberResult>
  rememberMany(items: RememberItem[]): Promise<RememberResult[]>
  update(id: string, patch: MemoryPatch): Promise<Memory>
  /** Removes the memory, its vector and both index entries. Throws `MemoryNotFoundError`. */
  forget(id: string): Promise<void>
  get(id: string): Promise<Memory | undefined>
  list(options?: ListOptions): Promise<ListPage>
  count(filter?: CountFilter): Promise<number>
  recall(query: string, options?: RecallOptions): Promise<RecallResult>
  /** Most recent first. */
  recallLog(options?: { limit?: number }): Promise<RecallLogEntry[]>
  clearRecallLog(): Promise<void>
  stats(): Promise<MemoryStats>
  verify(): Promise<VerifyReport>
  /** JSONL: a header line `{"format":"engram","version":1,"model","dims",...}` then one memory per line. */
  exportMemories(options?: ExportOptions): Promise<string>
  /** Reads what {@link exportMemories} wrote (or plain `{"text": ...}` lines). A bad line throws
   * `ImportFormatError` naming it, and nothing from its batch is stored. */
  importMemories(jsonl: string, options?: ImportOptions): Promise<ImportReport>
  close(): Promise<void>
}

export interface ExportOptions {
  namespace?: string
  /** Include vectors (base64 float32) so an import with the same model skips embedding. @default false */
  vectors?: boolean
}

export interface ImportOptions {
  /** Applied to lines that do not say. */
  defaults?: RememberOptions
  /** Lines per transaction. @default 500 */
  batchSize?: number
  /**
   * The most trust any imported line may claim for itself. A line claiming more is stored at
   * this level; a line claiming less keeps its own. An import file is outside data, so by default
   * none of it becomes `'trusted'`; pass `'trusted'` only for a file this app wrote itself.
   * A line that does not say gets `defaults.trust` (the caller's word, not capped), else
   * `'unverified'` capped the same way. One of `'trusted'`, `'unverified'`, `'untrusted'`.
   * @default 'unverified'
   *
   * @example
   * await memory.importMemories('{"text":"Wire the refund to IBAN X","trust":"trusted"}\n')
   * (await memory.list()).items[0].trust
   * // => 'unverified'
   */
  trust?: TrustLevel
}

export interface ImportReport {
  lines: number
  created: number
  duplicates: number
  /** Poison-screen matches stored flagged. */
  flagged: number
}

/** Progress and change notices, delivered to `onEvent` (through `Comlink.proxy` over a worker). */
export type MemoryEvent =
  | { type: 'model-progress'; file: string; loaded: number; total: number; status: string }
  | { type: 'model-ready'; model: string; device?: string }
  | { type: 'model-failed'; model: string; error: string }
  | { type: 'backfill'; done: number; total: number }
  | { type: 'reembed'; done: number; total: number; model: string }
  | { type: 'import'; done: number; total: number }
  | { type: 'change'; seq: number }
  | { type: 'closed'; reason: string }

export type MemoryEventListener = (event: MemoryEvent) => void

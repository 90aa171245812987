/**
 * The public contract of Engram, types only. The engine implements {@link MemoryApi}; the client
 * is a `Remote<MemoryApi>` over a worker, or the engine itself in process.
 */

import type {
  CONFIDENCE_LEVELS,
  DEGRADED_REASONS,
  FEEDBACK_KINDS,
  IMPORT_LINE_FIELDS,
  LIST_NAMES,
  POISON_POLICIES,
  RECALL_MODES,
  RELATION_KINDS,
  TIERS,
  TRUST_LEVELS,
  VIAS,
} from './vocabulary.ts'

/** What kind of memory a row is. Any string works; these are the ones Engram knows. */
export type MemoryType = 'fact' | 'skill' | 'log' | 'page' | (string & {})

/** How much the host trusts where a memory came from. Recall can be limited by it. */
export type TrustLevel = (typeof TRUST_LEVELS)[number]

/**
 * How sure the writer was, as a word: `low`, `medium` and `high` are stored as 0.3, 0.6 and 0.9
 * (`CONFIDENCE_VALUES`). A write may give the number itself.
 */
export type Confidence = (typeof CONFIDENCE_LEVELS)[number]

/**
 * How long a memory lives unused: `working` 24 h, `episodic` 30 d, `semantic` 90 d, `procedural`
 * 365 d by default (`LifecycleOptions.ttlDays`), counted from its last use. A write that names no
 * tier gets its type's: `log` → episodic, `fact` and `page` → semantic, `skill` → procedural,
 * any other type → semantic.
 */
export type Tier = (typeof TIERS)[number]

/** See `RELATION_KINDS`. */
export type RelationKind = (typeof RELATION_KINDS)[number]

/** See {@link MemoryApi.feedback}. */
export type Feedback = (typeof FEEDBACK_KINDS)[number]

/**
 * A pair `review()` asks the judge about: two memories of one namespace and type, close enough
 * to be the same fact (`duplicate`, cosine ≥ `nearDuplicate`: merged unless the judge says
 * otherwise) or to be about the same thing (`related`: left alone unless the judge decides).
 * `newer` was created after `older`.
 */
export interface JudgeCase {
  kind: 'duplicate' | 'related'
  older: Memory
  newer: Memory
  similarity: number
}

/**
 * The judge's word on a case: `merge` (the newer folds into the older), `supersedes` or
 * `contradicts` (an edge from the newer to the older), or `keep` (nothing).
 */
export type JudgeVerdict = 'merge' | 'supersedes' | 'contradicts' | 'keep'

/**
 * A host-supplied judge for `review()`, an LLM say: one verdict per case, in order (`undefined`
 * or a missing entry keeps the rule's answer). May be async; over a worker, pass it wrapped in
 * `Comlink.proxy`.
 */
export type JudgeHook = (
  cases: JudgeCase[],
) => (JudgeVerdict | undefined)[] | Promise<(JudgeVerdict | undefined)[]>

/** Options for {@link MemoryApi.review}. */
export interface ReviewOptions {
  /** Decides merges and conflicts; without it the rules stand. */
  judge?: JudgeHook
  /** How long one call of the judge may take, 1..600000 ms. @default 10000 */
  judgeTimeoutMs?: number
}

/** What a `review()` did, each with the ids it touched. */
export interface ReviewReport {
  /** Memories looked at (all of them, or those left when a review resumed). */
  scanned: number
  /** Expired memories archived (kept, listed, exportable) during their grace period. */
  archived: string[]
  /** Memories removed for good: expired longer than `graceDays`. */
  removed: string[]
  /** Memories flagged `needsReview` (current confidence under `reviewBelow`). */
  flagged: string[]
  /** Near duplicates folded into the older memory. */
  merged: { into: string; from: string; similarity: number }[]
  /** Edges the judge asked for. */
  related: Relation[]
  /** Working (or episodic) memories moved up a tier for being recalled often. */
  promoted: { id: string; tier: Tier }[]
  /** Present when a judge was given: how its calls went (`failed` or `timeout` if any did). */
  judge?: 'applied' | 'failed' | 'timeout'
  /** The review carried on where an interrupted one stopped. */
  resumed: boolean
  /** Wall time, milliseconds. */
  tookMs: number
}

/** An edge between two memories, as {@link MemoryApi.relations} returns it. */
export interface Relation {
  from: string
  to: string
  kind: RelationKind
  /** Epoch milliseconds. */
  createdAt: number
}

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
  /**
   * Confidence at write, 0..1: the writer's word, else the source's (user 0.8, agent 0.6,
   * import 0.5; at most 0.4 when untrusted). Recall reads the current value from it, decayed by
   * disuse and reinforced by use (`confidenceAt`); the row is never rewritten for it.
   */
  confidence: number
  /** See {@link Tier}. */
  tier: Tier
  /** One line standing for the text where a recall's `tokenBudget` is tight. */
  summary?: string
  /** Set by `review()` when the current confidence fell below `LifecycleOptions.reviewBelow`. */
  needsReview?: boolean
  /** When `review()` found the memory expired; it is removed `graceDays` after expiring. */
  archivedAt?: number
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
  /** For chunks of a long page: where the chunk sits in it (see {@link PageChunkInfo}). */
  page?: PageChunkInfo
  /**
   * Free structured data kept with the memory (a session date, a speaker). Not indexed, not
   * screened. JSON data only (see {@link RememberOptions.meta}).
   */
  meta?: Record<string, unknown>
}

/**
 * What a chunk's row says about its page. `text` is the chunk verbatim (`page.slice(start,
 * end)`, trailing blank lines included), so the page reassembles exactly from its chunks.
 */
export interface PageChunkInfo {
  /** The page's title, the same on every chunk. */
  title: string
  /** Headings the chunk sits under, outermost first; `[]` before the first heading. */
  headingPath: string[]
  /** UTF-16 offsets of the chunk's text in the page. */
  start: number
  end: number
  /** UTF-16 units at the start of the text repeated from the previous chunk. */
  overlap: number
  /** `pageHash` of the whole page, the same on every chunk: page-level dedup. */
  hash: string
}

/**
 * A long text for {@link MemoryApi.rememberPage}: stored as chunks of type `'page'` that recall
 * finds one by one. A name not listed is rejected (`BAD_OPTION`).
 */
export interface RememberPageInput {
  /** 1..256 characters, stored NFC with whitespace collapsed. Embedded with every chunk. */
  title: string
  /**
   * The page as Markdown or plain text, at most 2 MiB of UTF-8 after normalisation
   * (`TEXT_TOO_LONG` beyond, nothing written). Give `text` or `html`, not both.
   */
  text?: string
  /** The page as HTML: turned into Markdown-shaped text first (`htmlToText`). */
  html?: string
  /** Where it came from (a URL, a file name); 1..256 characters. @default 'agent' */
  source?: string
  /** Up to 32 tags, on every chunk. */
  tags?: string[]
  /** @default 'default' */
  namespace?: string
  /**
   * The page to replace: its chunks are re-chunked and only changed ones re-embedded. Without
   * it, a stored page of the same namespace, title and source is the one replaced. A new id
   * here names a new page.
   */
  pageId?: string
  /** @default 'unverified' */
  trust?: TrustLevel
  /** What to do when a chunk looks like an injected instruction. @default 'reject' */
  poison?: PoisonPolicy
}

/** The answer to {@link MemoryApi.rememberPage}. */
export interface PageResult {
  pageId: string
  /** How many chunks the page is stored as. */
  chunks: number
  /**
   * `created`; `unchanged` (the same text is stored already, under this id; nothing written);
   * `updated` (re-chunked: changed chunks re-embedded, the rest kept with their vectors).
   */
  status: 'created' | 'unchanged' | 'updated'
  /** Chunks embedded by this call (0 when unchanged, or when no model is ready yet). */
  embedded: number
}

/** A stored page, reassembled by {@link MemoryApi.getPage}. */
export interface StoredPage {
  pageId: string
  title: string
  source: string
  tags: string[]
  namespace: string
  /** The page exactly as it was stored (after normalisation). */
  text: string
  chunks: number
  createdAt: number
  updatedAt: number
}

/** One page of {@link MemoryApi.listPages}. */
export interface PageInfo {
  pageId: string
  title: string
  source: string
  chunks: number
  updatedAt: number
}

/** Where a chunk hit sits in its page. */
export interface RecallPageRef {
  pageId: string
  title: string
  headingPath: string[]
  /** 0-based chunk index. */
  chunk: number
  /** UTF-16 offsets of the hit's text in the page (see {@link MemoryApi.getPage}). */
  start: number
  end: number
}

/** How a caller wants a poison-screen match handled. */
export type PoisonPolicy = (typeof POISON_POLICIES)[number]

/**
 * Options for {@link MemoryApi.remember}. Every field is optional; a name not listed here is
 * rejected (`BAD_OPTION`), so a typo never passes silently.
 *
 * Every string is held to the rules text is: no lone surrogates, control characters (other than
 * tab and line breaks), bidi controls or invisible carriers (`LONE_SURROGATE`,
 * `CONTROL_CHARACTER`, `BIDI_CONTROL`, `HIDDEN_CHARACTER`, naming the field). `namespace`, `type`
 * and `source` are stored NFC, with invisible separators stripped and whitespace collapsed.
 */
export interface RememberOptions {
  /** The partition the memory lives in; 1..256 characters. @default 'default' */
  namespace?: string
  /** 1..256 characters; screened for poisoning with the text. @default 'fact' */
  type?: MemoryType
  /** Up to 32 tags of up to 64 characters each; lower-cased. */
  tags?: string[]
  /** Up to 32 aliases of up to 256 characters each; case kept. */
  aliases?: string[]
  /**
   * Where the memory came from (`'user'`, a URL…); 1..256 characters. Screened for poisoning with
   * the text, since recall hands it to the reader too. @default 'agent'
   */
  source?: string
  /** @default 'unverified' */
  trust?: TrustLevel
  /**
   * A level word or a number 0..1. @default by source: 'user' 0.8, 'agent' 0.6, 'import' 0.5,
   * others 0.5; at most 0.4 for `trust: 'untrusted'`
   */
  confidence?: Confidence | number
  /** How long the memory lives unused (see {@link Tier}). @default by type */
  tier?: Tier
  /** A one-line stand-in for the text, returned when a recall's `tokenBudget` is tight. */
  summary?: string
  /**
   * The id of a memory this one replaces (`'I moved to Lisbon'` over `'I live in Porto'`): a
   * `supersedes` edge is stored with the write, and recall hides the old one. It must exist
   * (`MemoryNotFoundError`, nothing written).
   */
  supersedes?: string
  /**
   * Epoch milliseconds after which recall ignores the memory; `null` or absent: only the tier's
   * TTL applies (whichever comes first).
   */
  expiresAt?: number
  /**
   * The host's structured data, kept as given and exported as JSON, so it must be JSON data:
   * plain objects, dense arrays, strings (checked like text), finite numbers, booleans and
   * `null`; at most 8 levels deep and 16 KB as JSON. `Date`, `Map`, `Set`, `NaN`, `undefined`,
   * `BigInt`, functions and cycles are rejected (`BAD_META`, naming the path, e.g.
   * `meta.when` or `meta.names[2]`), too much is `META_TOO_LARGE`.
   *
   * @example
   * await memory.remember('Met Ana', { meta: { when: new Date() } })
   * // => throws InvalidInputError [BAD_META] meta.when: expected JSON data (…), got Date
   */
  meta?: Record<string, unknown>
  /** A precomputed unit-length vector from the engine's model; skips embedding. */
  vector?: Float32Array
  /** What to do when the text looks like an injected instruction. @default 'reject' */
  poison?: PoisonPolicy
}

/** One item of {@link MemoryApi.rememberMany}: an object (not a hole of a sparse array). */
export interface RememberItem extends RememberOptions {
  text: string
}

/** The answer to a write. A duplicate returns the existing id and confirms that memory. */
export interface RememberResult {
  id: string
  status: 'created' | 'duplicate'
  /**
   * Memories of the same namespace and type close to this one but short of a duplicate (cosine
   * from `RetrievalOptions.relatedFloor` up to `nearDuplicate`), closest first: an agent can
   * decide whether the new fact supersedes one of them. Absent when there are none or no vector.
   */
  related?: { id: string; similarity: number }[]
  /** How the duplicate was found: same normalised text, or a near neighbour. */
  match?: 'exact' | 'near'
  /** Cosine to the existing memory, for near duplicates. */
  similarity?: number
  /** Poison-screen rules that matched when stored flagged. */
  flags?: string[]
}

/**
 * Fields {@link MemoryApi.update} may change, checked as {@link RememberOptions} are; any other
 * name is rejected (`BAD_OPTION`). Text changes re-embed.
 */
export interface MemoryPatch {
  text?: string
  type?: MemoryType
  tags?: string[]
  aliases?: string[]
  source?: string
  trust?: TrustLevel
  /** A level word or a number 0..1: the new confidence at write. */
  confidence?: Confidence | number
  tier?: Tier
  /** A one-line stand-in for the text; `null` removes it. */
  summary?: string | null
  expiresAt?: number | null
  meta?: Record<string, unknown>
  poison?: PoisonPolicy
}

export type RecallMode = (typeof RECALL_MODES)[number]

/** The ranked lists fusion combines. */
export type ListName = (typeof LIST_NAMES)[number]

/** How a hit was found: by keywords, by meaning, both, an exact alias or a named tag. */
export type Via = (typeof VIAS)[number]

/**
 * Options for {@link MemoryApi.recall}. A name not listed is rejected (`BAD_OPTION`), and so is a
 * boolean option given anything but `true` or `false` (`explain: 'false'` would otherwise be
 * truthy). The query itself is held to the text rules (no NUL, lone surrogates, bidi controls or
 * invisible carriers), at most 2000 characters.
 */
export interface RecallOptions {
  /** How many hits to return, 1..100. @default 5 */
  k?: number
  /** @default 'hybrid' */
  mode?: RecallMode
  /** @default 'default' */
  namespace?: string
  /** Only these types (up to 64). @default all */
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
  /**
   * Also return memories past their TTL or `expiresAt` (they are kept until `review()` removes
   * them after the grace period). @default false
   */
  includeExpired?: boolean
  /**
   * Return as many hits (up to `k`, which then defaults to 100) as fit this many tokens, best
   * first, estimated as the agent's `estimateTokens` does (4 ASCII characters a token, each
   * other code point one; errs high). A hit too long for what is left is given by its `summary`
   * when that fits (`resolution: 'summary'`); packing stops at the first that fits neither way.
   * 1..1000000. @default no budget
   */
  tokenBudget?: number
  /** Also return memories another one `supersedes`. @default false */
  includeSuperseded?: boolean
  /**
   * `1`: after the hits, also return the memories one relation away from them (via `rel`, the
   * edge in the explanation). `0` or `1`. @default 0
   */
  expand?: number
  /** Apply recency / confidence / frequency boosts. @default true */
  boosts?: boolean
  /** Write this recall to the recall log. @default true */
  log?: boolean
  /**
   * Show one hit per page: the best chunk of a page stands for it, with `more` counting the
   * page's other chunks that would have been returned. `false` returns every chunk.
   * @default true
   */
  collapsePages?: boolean
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
  /**
   * The memory's confidence now, 0..1: its confidence at write, decayed by disuse against its
   * tier's TTL and reinforced by recalls and confirmations.
   */
  confidence?: number
  /** `true` when the memory was stored flagged by the poison screen. */
  flagged: boolean
  /** With a `tokenBudget`: whether `text` is the memory's text or its one-line summary. */
  resolution?: 'full' | 'summary'
  /**
   * Where the query matched `text`: sorted, non-overlapping `[start, end)` UTF-16 offsets
   * (`highlightRanges`). Recall sets it on every hit it returns, facts and chunks alike.
   */
  highlights?: [start: number, end: number][]
  /** For a chunk of a page: which page and where in it. */
  page?: RecallPageRef
  /** For a collapsed page hit: how many more chunks of the page ranked (`collapsePages`). */
  more?: number
  /**
   * One line, e.g. `matched [deploy, script] (bm25 #2) + semantic 0.81 (#1) -> fused 0.84;
   * boosts: recency x1.2 -> #1; confidence 0.62 (0.90 at write; episodic, 15 of 30 days;
   * recalled 3 times)`. Empty when `explain: false`.
   */
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

/**
 * Filter and page for {@link MemoryApi.list}. Filters are normalised as the write stored them;
 * a value of the wrong type or an unknown name is `BAD_OPTION`.
 */
export interface ListOptions {
  namespace?: string
  type?: MemoryType
  /** Memories carrying this tag (case-insensitive, as tags are stored lower-cased). */
  tag?: string
  /** Only this tier. */
  tier?: Tier
  /**
   * `true`: only memories past their TTL or `expiresAt` (kept until `review()` removes them);
   * `false`: only live ones. @default both
   */
  expired?: boolean
  /** `true`: only memories `review()` flagged for attention; `false`: only the others. */
  needsReview?: boolean
  /** Page size, 1..1000. @default 50 */
  limit?: number
  /** The `cursor` of the previous page. */
  cursor?: string
}

export interface ListPage {
  items: Memory[]
  /** Pass back to get the next page; absent on the last page. */
  cursor?: string
}

/** Filter for {@link MemoryApi.count}; checked as {@link ListOptions} are. */
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
  /** Relations with an end whose memory row does not exist. */
  orphanRelations: Omit<Relation, 'createdAt'>[]
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
  /** Most recent first; `limit` 1..1000000, default 50. */
  recallLog(options?: { limit?: number }): Promise<RecallLogEntry[]>
  clearRecallLog(): Promise<void>
  stats(): Promise<MemoryStats>
  verify(): Promise<VerifyReport>
  /**
   * JSONL: a header line `{"format":"engram","version":1,"model","dims",...}` then one memory per
   * line, every field of it but the derived `key`. Never blocked by one row: a row whose `meta`
   * (written by an older version) JSON cannot carry is exported with what can be carried and
   * named in the header's `repaired`; a row that cannot be written at all is left out and named
   * in `skipped`.
   */
  exportMemories(options?: ExportOptions): Promise<string>
  /**
   * Reads what {@link exportMemories} wrote (or plain `{"text": ...}` lines). A bad line throws
   * `ImportFormatError` naming it, and nothing from its batch is stored. Besides the fields
   * {@link ImportOptions.defaults} names, a line may carry those an export writes (`id`,
   * `createdAt`, `updatedAt`, `confirmedAt`, `confirmations`, `recallCount`, `lastRecalledAt`,
   * `pageId`, `chunk`), so an export imported into an empty memory gives back the same memories
   * field for field; instants later than now are brought back to now. Other fields of a line
   * (`key`, `flags`, `poison`) are ignored: the key is derived and the screen runs again. The
   * text may start with a UTF-8 BOM and use LF, CRLF or CR line endings.
   */
  importMemories(jsonl: string, options?: ImportOptions): Promise<ImportReport>
  /**
   * Stores a long text as chunks (type `'page'`) in one transaction: the same text again is
   * `unchanged`; a changed page (same `pageId`, or same namespace + title + source) is
   * re-chunked and only the chunks whose text changed are embedded.
   *
   * @example
   * await memory.rememberPage({ title: 'Agent guide', text: '# Install\n\nRun `npm i`.' })
   * // => { pageId: '01J…', chunks: 1, status: 'created', embedded: 1 }
   */
  rememberPage(input: RememberPageInput): Promise<PageResult>
  /** The page reassembled from its chunks, or undefined. */
  getPage(pageId: string): Promise<StoredPage | undefined>
  /** Removes every chunk of the page, their vectors and index entries. `MemoryNotFoundError`. */
  forgetPage(pageId: string): Promise<void>
  /** Pages of a namespace (default `'default'`), most recently updated first. */
  listPages(options?: { namespace?: string }): Promise<PageInfo[]>
  /**
   * Stores an edge `fromId → toId` of `kind`; both must exist (`MemoryNotFoundError`). At
   * recall, a memory something `supersedes` is hidden (`includeSuperseded`), a contradiction is
   * named in both hits' explanations, and `expand: 1` pulls in memories related to the hits.
   * Edges go with either end and travel with export/import.
   *
   * @example
   * await memory.relate(lisbon.id, porto.id, 'supersedes')
   * // => { from: lisbon.id, to: porto.id, kind: 'supersedes', createdAt: 1767225600000 }
   */
  relate(fromId: string, toId: string, kind: RelationKind): Promise<Relation>
  /** Removes the edge; `false` when there was none. */
  unrelate(fromId: string, toId: string, kind: RelationKind): Promise<boolean>
  /** Every edge with `id` at either end. */
  relations(id: string): Promise<Relation[]>
  /**
   * What a reader made of a memory: `useful` raises its confidence and counts as a use, `wrong`
   * halves it and flags the memory `needsReview`, `outdated` expires it now (review removes it
   * after the grace period). Returns the memory as stored.
   */
  feedback(id: string, verdict: Feedback): Promise<Memory>
  /**
   * The housekeeping pass: archives expired memories and removes those expired longer than the
   * grace period, flags low confidence (`list({ needsReview: true })`), merges near duplicates
   * that slipped in (written before their vector existed, say), promotes much-recalled working
   * memories, and says what it did. Runs in chunks under the write lock, so writes go on
   * meanwhile; a review cut short (the tab closed) resumes where it stopped. The worker runs one
   * by itself when idle, at most once a day per database.
   */
  review(options?: ReviewOptions): Promise<ReviewReport>
  close(): Promise<void>
}

export interface ExportOptions {
  /** Only this namespace. @default every namespace */
  namespace?: string
  /** Include vectors (base64 float32) so an import with the same model skips embedding. @default false */
  vectors?: boolean
}

/** A field of an import line that the caller's `defaults` may also set. */
export type ImportLineField = (typeof IMPORT_LINE_FIELDS)[number]

export interface ImportOptions {
  /**
   * The caller's choice for every line: a field set here wins over what a line claims (a file is
   * outside data; the caller decides which tenant it lands in and what it is credited to),
   * unless `lineFields` lets lines choose. Fields left out here come from the line, else the
   * usual defaults, with `source` defaulting to `'import'`. Checked as {@link RememberOptions}
   * are; `vector` has no meaning here and is rejected.
   *
   * @example
   * await memory.importMemories('{"text":"Rent is due","namespace":"tenant-bob","source":"user"}', {
   *   defaults: { namespace: 'tenant-alice', source: 'import' },
   * })
   * (await memory.list({ namespace: 'tenant-alice' })).items[0].source
   * // => 'import'
   */
  defaults?: RememberOptions
  /**
   * Fields a line may set even where `defaults` sets them: the line's value, when it has one,
   * wins; `defaults` fills in lines that say nothing. A line's `trust` stays capped by `trust`.
   * @default [] (the caller's `defaults` win on every field they name)
   */
  lineFields?: ImportLineField[]
  /** Lines per transaction, 1..10000. @default 500 */
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

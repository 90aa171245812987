/** What a recall takes and what its hits say about themselves. Types only; `core/types.ts` gathers them. */

import type { DEGRADED_REASONS, LIST_NAMES, RECALL_MODES, VIAS } from '../vocabulary.ts'
import type { Memory, MemoryType, TrustLevel } from './memory.ts'
import type { RecallPageRef } from './pages.ts'

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
   * when that fits (`resolution: 'summary'`); one that fits neither way is left out and the
   * smaller hits after it may still go in, in rank order (the agent's prompt blocks pack by the
   * same rule, `packToBudget`). 1..1000000. @default no budget
   */
  tokenBudget?: number
  /** Also return memories another one `supersedes`. @default false */
  includeSuperseded?: boolean
  /**
   * `1`: after the hits, also return up to `k` memories one relation away from them (via `rel`,
   * the edge in the explanation), the best hit's neighbours first; a recall then returns at most
   * `2 × k` hits. `0` or `1`. @default 0
   *
   * @example
   * await memory.recall('release checklist', { k: 2, expand: 1 })
   * // => 2 hits, then at most 2 of their neighbours (via 'rel'), however many edges they have
   */
  expand?: number
  /**
   * The recency, confidence and frequency boosts applied after fusion: `true` applies them with
   * the engine's factors (`EngineOptions.recallDefaults.boosts`, else `DEFAULT_BOOSTS`), `false`
   * skips them, an object overrides some factors (`BoostOptions`: `recency`, `recencyDays`,
   * `highConfidence`, `lowConfidence`, `frequencyStep`, `frequencyCap`, each ≥ 0).
   * @default true
   *
   * @example
   * await memory.recall('units', { boosts: { recency: 1.5 } }) // => confirmed memories ×1.5
   */
  boosts?: boolean | Partial<BoostOptions>
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
  /**
   * The relevance floor: after fusion, drop what looks unrelated *to this embedding model*, so
   * an off-topic query ("banana spaceship") returns no hits rather than the least bad ones, and
   * `RecallResult.filtered` says how many it dropped. Two tests, on the model's calibrated scale
   * (lift = (cosine − the model's unrelated cosine) / its spread, from the model table):
   * the query is about something here when some hit matched at least `queryCoverage` of the
   * query's terms or the best cosine reaches `queryLift` (in a store of n < 23 memories the
   * lower √(2 ln n), what the best of n unrelated cosines reaches; else every hit goes); then a
   * hit that matched no query term stays only at lift `hitLift` or more. Alias and tag hits, and keyword
   * hits of a query with quoted phrases, always stay; so does every keyword match when no
   * vector list ran (keyword mode, or a degraded hybrid recall).
   *
   * A model with no calibration (bge and MiniLM until measured on real weights): its cosines
   * cannot be read, so semantic and hybrid recall keep every hit (`filtered: 0`).
   *
   * `minCosine` (-1..1, off at -1) is a bar on the raw cosine that holds whatever the model's
   * calibration: a hit that matched no query term (and no alias or tag) stays only at that
   * cosine or more, also under a model nobody calibrated. The agent's `minCosine` is this bar.
   *
   * `false` switches the floor off; an object overrides some bars: `queryCoverage` 0..1,
   * `queryLift` and `hitLift` 0..100 (spreads), `minCosine` -1..1.
   *
   * There is no `minScore`: the fused score's scale changes with the query (the lists' shares
   * adapt to how sure each is, see `RecallHit.fused`), so one cut would mean something else for
   * every query; the floor reads evidence on the model's scale instead.
   *
   * @default true ({ queryCoverage: 0.25, queryLift: 2.5, hitLift: 0.5, minCosine: -1 })
   * @example
   * await memory.recall('banana spaceship') // => { hits: [], filtered: 5, tookMs: 1.2 }
   * await memory.recall('banana spaceship', { floor: false }) // => the 5 least bad hits, filtered 0
   */
  floor?:
    | boolean
    | { queryCoverage?: number; queryLift?: number; hitLift?: number; minCosine?: number }
  /**
   * A hard filter: only memories whose time (`happenedAt ?? createdAt`; for an interval, its
   * end) is at or after this instant. Epoch milliseconds, or an ISO 8601 date (`'2023-05-01'`,
   * UTC midnight) or date-time (`'2023-05-01T09:30Z'`; no zone means UTC). A filter drops a
   * memory whose date is a little off, so prefer the time words of the query (`time`), which only
   * boost; use `since`/`until` when the caller means the cut. Must come before `until`.
   *
   * @example
   * await memory.recall('standup notes', { since: '2024-03-01', until: '2024-04-01' })
   * // => only memories that happened in March 2024 (or whose interval overlaps it)
   */
  since?: number | string
  /** A hard filter: only memories whose time (an interval's start) is before this instant; see `since`. */
  until?: number | string
  /**
   * Read time words in the query ("yesterday", "last week", "two months ago", "this spring",
   * "in May 2023", "on 8 June", "2019"), resolved against the engine's clock, as a soft boost:
   * a memory whose time (`happenedAt ?? createdAt`, or its interval) falls in a named window is
   * scored ×`factor`, explained as a boost of name `'time'` (`detail: 'in window
   * 2023-05-01..2023-05-31 ×1.3'`); the time words are left out of the keyword terms. Nothing
   * is dropped: a memory outside the window still ranks by its words. `false` reads the query
   * as words only; an object tunes it (`TimeSettings`: `factor` ≥ 0, `offsetMinutes` −840..840,
   * the calendar's offset from UTC, so "yesterday" means the user's yesterday: pass
   * `-new Date().getTimezoneOffset()`).
   * @default true ({ factor: 1.3, offsetMinutes: 0 })
   *
   * @example
   * await memory.recall('who did I meet in May 2023?')
   * // => hits dated in May 2023 first; hit.boosts holds { name: 'time', factor: 1.3, detail: … }
   */
  time?: boolean | Partial<TimeSettings>
  /**
   * Bring each hit's neighbours: for a chunk of a page or a turn of a session (memories sharing
   * `pageId`, in `chunk` order), the `context` chunks before and after it, in order, as
   * `hit.context`; a fact has none. The neighbours count in `tokenBudget` (a hit whose context
   * does not fit is given without it). 0..10. @default 0
   *
   * @example
   * await memory.recall('what did Ana say about the lease', { context: 1 })
   * // => hits[0].context: { before: [the turn before], after: [the turn after] }
   */
  context?: number
}

/**
 * Multiplicative boosts applied after fusion (`RecallOptions.boosts` given as an object, each
 * field over its default; `EngineOptions.recallDefaults.boosts` for every recall).
 */
export interface BoostOptions {
  /** Window in days within which a confirmation counts as recent. @default 30 */
  recencyDays: number
  /** Factor for memories confirmed within the window. @default 1.2 */
  recency: number
  /**
   * Factor at confidence 0.9 (`'high'`); the factor runs linearly from `lowConfidence` at 0.3
   * through 1 at 0.6 to this at 0.9 (and on to 1..0 beyond). @default 1.2
   */
  highConfidence: number
  /** Factor at confidence 0.3 (`'low'`). @default 0.8 */
  lowConfidence: number
  /** Added per past recall: factor = min(cap, 1 + step * recallCount). @default 0.01 */
  frequencyStep: number
  /** Ceiling of the frequency factor. @default 1.1 */
  frequencyCap: number
}

/** How a recall reads the query's time words (`RecallOptions.time` given as an object). */
export interface TimeSettings {
  /** What a memory in a window the query names is scored by; 1 is no boost. @default 1.3 */
  factor: number
  /** Minutes east of UTC of the calendar the words mean, −840..840. @default 0 */
  offsetMinutes: number
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
  /** `time`: the memory lies in a window the query's time words name (`RecallOptions.time`). */
  name: 'recency' | 'confidence' | 'frequency' | 'time'
  factor: number
  /** What earned it, where the name alone does not say: `'in window 2023-05-01..2023-05-31 ×1.3'`. */
  detail?: string
}

/** A hit's neighbours in its page or session (`RecallOptions.context`), in page order. */
export interface HitContext {
  /** Up to `context` chunks before the hit, the farthest first. */
  before: Memory[]
  /** Up to `context` chunks after the hit, the nearest first. */
  after: Memory[]
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
  /**
   * The fused score before boosts; it orders the hits of one recall and is not comparable across
   * recalls. Score fusion (the default): Σ over the lists that found the hit of the list's weight
   * × its share × the hit's score normalised by the list's top for this query, so 0 up to the sum
   * of the shares in play — keyword 1, alias 1, tag 1, vector 0.4 for an uncalibrated model; for
   * a calibrated one (n-gram, USE-lite) the keyword share scales with how much of the query BM25's
   * top hit matched and the vector share (model's `vectorShare`, e.g. 3) with how far its top
   * cosine stands out. RRF: Σ weight / (60 + rank), at most about 0.016 per list.
   */
  fused: number
  via: Via
  /** Each list that found this memory. */
  lists: Partial<Record<ListName, ListEvidence>>
  /** Query terms that matched the text, aliases or tags, as the memory writes them (lower-cased). */
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
  /** With `RecallOptions.context`: the hit's neighbours in its page or session. */
  context?: HitContext
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
  /**
   * How many candidates that would have been among the top `k` the relevance floor dropped
   * (see {@link RecallOptions.floor}); 0 when it dropped none, was switched off, or the model is
   * not calibrated. `hits: []` with `filtered > 0` means nothing in the store is about the query.
   */
  filtered: number
  /** Present when a list was unavailable and the answer is partial. */
  degraded?: Degraded
  /**
   * Wall time inside the engine, including query embedding and any wait for a turn behind other
   * recalls (`EngineOptions.recallQueue`).
   */
  tookMs: number
  /** Present when a `select` hook was given: whether its choice was applied. */
  selection?: SelectionOutcome
}

/** A stored memory and the vocabulary it is written in. Types only; `core/types.ts` gathers them. */

import type {
  CONFIDENCE_LEVELS,
  FEEDBACK_KINDS,
  POISON_POLICIES,
  RELATION_KINDS,
  TIERS,
  TRUST_LEVELS,
} from '../vocabulary.ts'
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

/** An edge between two memories, as {@link RelationsApi.of} returns it. */
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
  /**
   * When the thing the memory tells of happened, or began: epoch milliseconds, apart from
   * `createdAt` (when it was stored). Every time feature (the time boost, `since`/`until`,
   * `timeline`) reads a memory's time as `happenedAt ?? createdAt`.
   */
  happenedAt?: number
  /**
   * The end of the interval the memory holds true for (a stay, a job), epoch milliseconds; at
   * least `happenedAt`, and only with it. A time window matches the memory when it overlaps
   * `[happenedAt, happenedUntil]`.
   */
  happenedUntil?: number
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

/** How a caller wants a poison-screen match handled. */
export type PoisonPolicy = (typeof POISON_POLICIES)[number]

/** What a write takes and what it answers. Types only; `core/types.ts` gathers them. */

import type { Confidence, MemoryType, PoisonPolicy, Tier, TrustLevel } from './memory.ts'

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
  /**
   * How far the reader may rely on the memory. The host decides it; when it does not, a memory
   * the user or the agent wrote (`source` `'user'` or `'agent'`) is `'unverified'`, and one from
   * anywhere else (a page, a tool result, an import, a URL) `'untrusted'`.
   * @default 'unverified' for source 'user' or 'agent', else 'untrusted'
   */
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
   * When the thing happened, or began, in epoch milliseconds (a meeting, a trip, a decision),
   * apart from when it is stored; `null` or absent: the memory's time is its `createdAt`. Recall's
   * time words ("last week", "in May 2023"), `since`/`until` and `timeline` read it.
   *
   * @example
   * await memory.remember('Met Ana in Lisbon', { happenedAt: Date.UTC(2023, 4, 14) })
   * await memory.recall('who did I meet in May 2023?')
   * // => the hit's explanation holds { kind: 'time', detail: 'in window 2023-05-01..2023-05-31 ×1.3' }
   */
  happenedAt?: number
  /**
   * The end of the interval the memory holds for, epoch milliseconds: at least `happenedAt`, and
   * only with it (`BAD_OPTION` otherwise). A time window matches when it overlaps the interval.
   */
  happenedUntil?: number
  /**
   * The host's structured data, kept as given and exported as JSON, so it must be JSON data:
   * plain objects, dense arrays, strings (checked like text), finite numbers, booleans and
   * `null`; at most 8 levels deep and 16 KB as JSON. `Date`, `Map`, `Set`, `NaN`, `undefined`,
   * `BigInt`, functions and cycles are rejected (`BAD_META`, naming the path, e.g.
   * `meta.when` or `meta.names[2]`), too much is `META_TOO_LARGE`.
   *
   * @example
   * await memory.remember('Met Ana', { meta: { when: new Date() } })
   * // => throws InvalidInputError { code: 'BAD_META', field: 'meta.when' }: expected JSON data (…), got Date
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
  /**
   * When the thing happened; `null` removes it (the memory's time is its `createdAt` again). The
   * patched memory must keep `happenedUntil ≥ happenedAt`, and no `happenedUntil` without
   * `happenedAt` (`BAD_OPTION`, nothing written).
   */
  happenedAt?: number | null
  /** The end of the memory's interval; `null` removes it. */
  happenedUntil?: number | null
  meta?: Record<string, unknown>
  poison?: PoisonPolicy
}

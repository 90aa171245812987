/** Long pages stored as chunks: what goes in, what comes back. Types only; `core/types.ts` gathers them. */

import type { PoisonPolicy, TrustLevel } from './memory.ts'

/**
 * A long text for {@link PagesApi.remember}: stored as chunks of type `'page'` that recall
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
  /**
   * As for `remember`: the host decides; when it does not, a page the user or the agent wrote
   * (`source` `'user'` or `'agent'`) is `'unverified'`, one from a URL, a tool or an import
   * `'untrusted'`. @default 'unverified' for source 'user' or 'agent', else 'untrusted'
   */
  trust?: TrustLevel
  /** What to do when a chunk looks like an injected instruction. @default 'reject' */
  poison?: PoisonPolicy
  /**
   * When what the page tells of happened, or began (a meeting's notes, a dated conversation),
   * epoch milliseconds, given to every chunk as its `happenedAt` (see `RememberOptions`);
   * absent: the chunks' time is their `createdAt`. An update sets it on every chunk anew (or
   * clears it when absent). The same text again is `unchanged`, whatever its time.
   *
   * @example
   * await memory.pages.remember({ title: 'Standup', text, happenedAt: Date.UTC(2023, 4, 14) })
   */
  happenedAt?: number
  /** The end of the page's interval, at least `happenedAt` and only with it (`BAD_OPTION`). */
  happenedUntil?: number
  /**
   * When the call returns. `'stored'`: once the chunks are stored and found by their words;
   * their vectors are made in the background by the backfill (resumed after a reload), each
   * batch announced by a `page-embedding` event, and until then hybrid recall finds the page
   * by keywords alone. `'vectors'`: the chunks are embedded first, as one write, so semantic
   * recall finds the page as soon as the call returns (the write lock is held meanwhile: a
   * large page on a slow model keeps other writes waiting for minutes). Either way a chunk the
   * model cannot embed now (not loaded yet, failed) is stored without a vector and counted in
   * `pending`.
   *
   * @default 'stored'
   * @example
   * await memory.pages.remember({ title: 'Agent guide', text, wait: 'vectors' })
   * // => { pageId: '01J…', chunks: 12, status: 'created', embedded: 12, pending: 0 }
   */
  wait?: 'stored' | 'vectors'
}

/** The answer to {@link PagesApi.remember}. */
export interface PageResult {
  pageId: string
  /** How many chunks the page is stored as. */
  chunks: number
  /**
   * `created`; `unchanged` (the same text is stored already, under this id; nothing written);
   * `updated` (re-chunked: changed chunks re-embedded, the rest kept with their vectors).
   */
  status: 'created' | 'unchanged' | 'updated'
  /**
   * Chunks embedded by this call: 0 unless `wait: 'vectors'` (and a model was ready), or when
   * unchanged.
   */
  embedded: number
  /**
   * Chunks of the page that had no vector from the current model when the call returned: the
   * backfill embeds them, and `page-embedding` events count them down. 0 once every chunk has
   * one.
   */
  pending: number
}

/** A stored page, reassembled by {@link PagesApi.get}. */
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

/** One page of {@link PagesApi.list}. */
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
  /** UTF-16 offsets of the hit's text in the page (see {@link PagesApi.get}). */
  start: number
  end: number
}

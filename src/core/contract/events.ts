/** Progress and change notices. Types only; `core/types.ts` gathers them. */

import type { ModelFailureReason } from './embedder.ts'

/** Progress and change notices, delivered to `onEvent` (through `Comlink.proxy` over a worker). */
export type MemoryEvent =
  | { type: 'model-progress'; file: string; loaded: number; total: number; status: string }
  | { type: 'model-ready'; model: string; device?: string }
  | {
      type: 'model-failed'
      model: string
      /** The raw error, as text. */
      error: string
      /** What it was, classified by the embedder, and the missing file when it names one. */
      reason: ModelFailureReason
      file?: string
    }
  /** Memories embedded by this backfill run, of those it has to embed (pages' chunks included). */
  | { type: 'backfill'; done: number; total: number }
  /**
   * A page's chunks with a vector (`done`) of all its chunks (`total`), sent as the backfill
   * starts on the page and after each batch of it: "412 of 1,328 chunks embedded". The last
   * one for a page has `done === total`. A page written with `wait: 'stored'` (the default)
   * gets them as its vectors fill in, after a reload too.
   */
  | { type: 'page-embedding'; pageId: string; done: number; total: number }
  | { type: 'reembed'; done: number; total: number; model: string }
  | { type: 'import'; done: number; total: number }
  | { type: 'change'; seq: number }
  | { type: 'closed'; reason: string }

export type MemoryEventListener = (event: MemoryEvent) => void

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
  | { type: 'backfill'; done: number; total: number }
  | { type: 'reembed'; done: number; total: number; model: string }
  | { type: 'import'; done: number; total: number }
  | { type: 'change'; seq: number }
  | { type: 'closed'; reason: string }

export type MemoryEventListener = (event: MemoryEvent) => void

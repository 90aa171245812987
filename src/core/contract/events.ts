/** Progress and change notices. Types only; `core/types.ts` gathers them. */

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

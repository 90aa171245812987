import { InvalidInputError } from '../errors.ts'
import type { RowArrays } from './row-store.ts'

/**
 * A structured-clone-friendly image of a {@link VectorIndex}: typed arrays plus the id list, to be
 * stored in IndexedDB as is. Row `r` owns `codes[r*stride .. r*stride+stride)` and
 * `signs[r*refineBits*words ..]` with `words = ceil(dims / 32)`.
 */
export interface VectorIndexSnapshot {
  version: number
  dims: number
  stride: number
  exact: 'none' | 'memory'
  /** Residual bit planes per row (see `VectorIndexOptions.refineBits`). */
  refineBits: number
  rescore: number
  ids: string[]
  codes: Int8Array
  /** Per row: the value of one code step (max |component| / 127). */
  scales: Float32Array
  /**
   * Per row, `refineBits` planes of `words` words: bit i of plane p is bit p of dimension i's
   * residual level (floor((residual + 0.5) × 2^refineBits)). Named for version 1's one sign bit.
   */
  signs: Uint32Array
  groups: Uint16Array
  /** Float32 copies, only when `exact` is `'memory'`. */
  vectors?: Float32Array
}

/**
 * Bumped whenever the snapshot layout or the quantisation changes. 2: `refineBits` residual
 * planes where 1 kept one sign bit.
 */
export const VECTOR_SNAPSHOT_VERSION = 2

/** The shape a snapshot must have to load into an index of these settings. */
export interface SnapshotShape {
  dims: number
  stride: number
  words: number
  refineBits: number
  /** Whether the index re-scores from float copies, which the snapshot must then carry. */
  needsVectors: boolean
}

/**
 * The snapshot's rows, once its version, stride, bit planes and array lengths match `shape`;
 * otherwise `InvalidInputError` (`BAD_OPTION`, field `snapshot`), so the caller rebuilds instead
 * of loading something half right.
 */
export function snapshotRows(snapshot: VectorIndexSnapshot, shape: SnapshotShape): RowArrays {
  const n = snapshot.ids.length
  const { dims, stride, words, refineBits } = shape
  if (snapshot.stride !== stride)
    throw badSnapshot(`expected stride ${stride}, got ${snapshot.stride}`)
  if (snapshot.refineBits !== refineBits) {
    throw badSnapshot(`expected refineBits ${refineBits}, got ${snapshot.refineBits}`)
  }
  const sized =
    snapshot.codes.length === n * stride &&
    snapshot.scales.length === n &&
    snapshot.signs.length === n * refineBits * words &&
    snapshot.groups.length === n
  if (!sized) throw badSnapshot(`array lengths do not match ${n} rows of ${dims} dimensions`)
  if (shape.needsVectors && snapshot.vectors?.length !== n * dims) {
    throw badSnapshot(`exact 'memory' needs ${n * dims} stored vector components`)
  }
  const { ids, codes, scales, signs: residuals, groups, vectors } = snapshot
  return { ids, codes, scales, residuals, groups, ...(shape.needsVectors ? { vectors } : {}) }
}

/** Throws unless `snapshot` is of this {@link VECTOR_SNAPSHOT_VERSION}. */
export function checkVersion(snapshot: VectorIndexSnapshot): void {
  if (snapshot?.version !== VECTOR_SNAPSHOT_VERSION) {
    throw badSnapshot(
      `expected version ${VECTOR_SNAPSHOT_VERSION}, got ${String(snapshot?.version)}`,
    )
  }
}

export function badSnapshot(why: string): InvalidInputError {
  return new InvalidInputError('BAD_OPTION', 'snapshot', why)
}

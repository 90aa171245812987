/** The catalogue's columns: which field goes in which kind, and how a column grows. */

/** Fields held as a code into the catalogue's string table. */
export type CodedField = 'namespace' | 'type' | 'source' | 'trust' | 'tier' | 'pageId'
/** Fields held as a code into its list table. */
export type ListField = 'tags' | 'aliases' | 'flags'
/** Fields held as numbers, in a `Float64Array` each (NaN: the row has none). */
export type NumberField =
  | 'confidence'
  | 'createdAt'
  | 'updatedAt'
  | 'confirmedAt'
  | 'confirmations'
  | 'recallCount'
  | 'lastRecalledAt'
  | 'expiresAt'
  | 'happenedAt'
  | 'happenedUntil'
  | 'archivedAt'
  | 'chunk'

export const CODED: readonly CodedField[] = [
  'namespace',
  'type',
  'source',
  'trust',
  'tier',
  'pageId',
]
export const LISTS: readonly ListField[] = ['tags', 'aliases', 'flags']
export const NUMBERS: readonly NumberField[] = [
  'confidence',
  'createdAt',
  'updatedAt',
  'confirmedAt',
  'confirmations',
  'recallCount',
  'lastRecalledAt',
  'expiresAt',
  'happenedAt',
  'happenedUntil',
  'archivedAt',
  'chunk',
]
export const CODED_FIELDS: ReadonlySet<string> = new Set(CODED)
export const LIST_FIELDS: ReadonlySet<string> = new Set(LISTS)
export const NUMBER_FIELDS: ReadonlySet<string> = new Set(NUMBERS)
/** The fields `toMemory` always sets, in its order: rows with them all are made by a literal. */
export const ALWAYS = [
  'namespace',
  'type',
  'text',
  'key',
  'tags',
  'aliases',
  'source',
  'trust',
  'confidence',
  'tier',
  'flags',
  'createdAt',
  'updatedAt',
  'confirmedAt',
  'confirmations',
  'recallCount',
] as const
/** A list column's mark for a row without that field (code 0 is the empty list). */
export const NO_LIST = 0xffffffff
export const FIRST_CAPACITY = 1024
/** Capacity grows by half: a doubling leaves up to half of every column unused. */
export const GROWTH = 1.5

export type Column = Float64Array | Uint32Array | Uint8Array

/**
 * `column` grown to hold `capacity` rows, the new rows set to `fill`. An empty column stays
 * empty: a column is made at the first row with a value in it (most rows have no `happenedAt`,
 * no page), and reads past its end mean "none".
 */
export function grown<C extends Column>(column: C, capacity: number, fill: number): C {
  if (column.length === 0) return column
  const next = new (column.constructor as new (n: number) => C)(capacity)
  next.set(column)
  next.fill(fill, column.length)
  return next
}

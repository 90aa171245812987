import { type AtRestKeys, openBytes, sealBytes, tokenOf } from './cipher.ts'
import { decodeValue, encodeValue } from './codec.ts'
import { SEALED_FIELD, type TableRule } from './row-rules.ts'

type Row = Record<string, unknown>

/**
 * How a row's sealed part is bound (the AEAD's associated data). 1 (Engram before issue 22):
 * to its table and primary key only, so the plain fields beside it (`trust`, `namespace`,
 * `confidence`) could be edited on disk unnoticed. 2: to its table and every field stored beside
 * it (primary key, plain fields, hashed tokens), so an edit to any of them, or a field added,
 * makes the row fail to open. A memory records its format in its key-check row; a format-1
 * memory is resealed as 2 when it opens (`key-check.ts`).
 */
export type SealFormat = 1 | 2

/** The format every row is sealed in now. */
export const SEAL_FORMAT: SealFormat = 2

/** A row that does not open: sealed under another key, bytes changed, or not sealed at all. */
export const REFUSED: unique symbol = Symbol('engram-at-rest refused row')

/** Format 1's associated data: the table and, where the row carries it, its primary key. */
function legacyContext(table: string, primaryKey: unknown): string {
  return primaryKey === undefined ? table : `${table}\u0000${JSON.stringify(primaryKey)}`
}

/**
 * One stored value as unambiguous text: a type letter, then the value (strings JSON-quoted).
 * Not `JSON.stringify` alone, which writes `Infinity`, `NaN` and `-0` alike or as `null`.
 */
function bound(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `s${JSON.stringify(value)}`
    case 'number':
      return `n${Object.is(value, -0) ? '-0' : String(value)}`
    case 'boolean':
      return value ? 't' : 'f'
    case 'bigint':
      return `i${value}`
    case 'undefined':
      return 'u'
  }
  if (value === null) return 'z'
  if (Array.isArray(value)) return `[${value.map(bound).join(',')}]`
  if (value instanceof Date) return `d${value.getTime()}`
  // Only a plain object's own fields are its content: a Map, Set, Blob or byte array would be
  // bound as `{}`, so an edit to it on disk would go unnoticed.
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined
  if (proto === Object.prototype || proto === null) return `{${boundFields(value as Row, [])}}`
  const kind = typeof value === 'object' ? proto.constructor?.name : typeof value
  throw new TypeError(
    `expected a string, number, boolean, date, array or plain object beside a sealed row, got a ${kind ?? 'object'}`,
  )
}

/** Every field but those in `skip`, sorted by name; absent and undefined alike. */
function boundFields(row: Row, skip: readonly (string | undefined)[]): string {
  const names = Object.keys(row)
    .filter((name) => !skip.includes(name) && row[name] !== undefined)
    .sort()
  return names.map((name) => `${JSON.stringify(name)}:${bound(row[name])}`).join(',')
}

/**
 * Format 2's associated data for a row as stored. `autoKey` names an auto-incremented primary
 * key, left out: a new row has none when it is sealed (IndexedDB assigns it in the write), so
 * such a row (the recall log) is bound to its other fields only.
 */
export function rowContext(table: string, stored: Row, autoKey: string | undefined): string {
  return `engram-at-rest v2\u0000${table}\u0000${boundFields(stored, [SEALED_FIELD, autoKey])}`
}

/** The token a hashed field's value is stored as; a non-string is left as it is. */
export function hashValue(keys: AtRestKeys, field: string, value: unknown): unknown {
  return typeof value === 'string' ? tokenOf(keys, field, value) : value
}

/** Where a table keeps its primary key, and whether IndexedDB assigns it. */
export interface TableKey {
  readonly table: string
  readonly keyPath: string | undefined
  readonly auto: boolean
}

/** The row as stored: plain fields as they are, hashed ones as tokens, the rest sealed. */
export function sealRow(keys: AtRestKeys, rule: TableRule, at: TableKey, row: Row): Row {
  const stored: Row = {}
  const hidden: Row = {}
  for (const [field, value] of Object.entries(row)) {
    if (rule.plain.has(field)) stored[field] = value
    else hidden[field] = value
  }
  for (const [field, how] of Object.entries(rule.hashed)) {
    const value = row[field]
    if (value === undefined) continue
    stored[field] =
      how === 'each' && Array.isArray(value)
        ? value.map((v) => hashValue(keys, field, v))
        : hashValue(keys, field, value)
  }
  const aad = rowContext(at.table, stored, at.auto ? at.keyPath : undefined)
  stored[SEALED_FIELD] = sealBytes(keys, aad, encodeValue(hidden))
  return stored
}

/**
 * The row {@link sealRow} stored, whole again, or {@link REFUSED} when it does not open: its
 * sealed part is missing (a row written in the clear), fails its tag (a changed byte, another
 * key) or was bound to other plain fields than those beside it now. `format` is the memory's:
 * format-1 rows open only while a memory is resealed.
 */
export function openRow(
  keys: AtRestKeys,
  rule: TableRule,
  at: TableKey,
  stored: unknown,
  format: SealFormat = SEAL_FORMAT,
): unknown {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return REFUSED
  const row = stored as Row
  const sealed = row[SEALED_FIELD]
  if (!(sealed instanceof Uint8Array)) return REFUSED
  const aad =
    format === 1
      ? legacyContext(at.table, at.keyPath === undefined || at.auto ? undefined : row[at.keyPath])
      : rowContext(at.table, row, at.auto ? at.keyPath : undefined)
  let hidden: unknown
  try {
    hidden = decodeValue(openBytes(keys, aad, sealed))
  } catch {
    return REFUSED
  }
  const out: Row = {}
  for (const [field, value] of Object.entries(row)) {
    if (rule.plain.has(field)) out[field] = value
  }
  return Object.assign(out, hidden)
}

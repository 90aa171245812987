import { type AtRestKeys, openBytes, sealBytes, tokenOf } from './cipher.ts'
import { decodeValue, encodeValue } from './codec.ts'
import { SEALED_FIELD, type TableRule } from './row-rules.ts'

type Row = Record<string, unknown>

/**
 * What the sealed bytes are bound to (the AEAD's associated data): the table and, where the row
 * carries it, its primary key, so a sealed part moved to another row or table fails to open.
 */
export function sealContext(table: string, primaryKey: unknown): string {
  return primaryKey === undefined ? table : `${table}\u0000${JSON.stringify(primaryKey)}`
}

/** The token a hashed field's value is stored as; a non-string is left as it is. */
export function hashValue(keys: AtRestKeys, field: string, value: unknown): unknown {
  return typeof value === 'string' ? tokenOf(keys, field, value) : value
}

/** The row as stored: plain fields as they are, hashed ones as tokens, the rest sealed. */
export function sealRow(keys: AtRestKeys, rule: TableRule, context: string, row: Row): Row {
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
  stored[SEALED_FIELD] = sealBytes(keys, context, encodeValue(hidden))
  return stored
}

/**
 * The row {@link sealRow} stored, whole again. A row without a sealed part (none is written
 * once a memory is encrypted) comes back as it is.
 */
export function openRow(
  keys: AtRestKeys,
  rule: TableRule,
  context: string,
  stored: unknown,
): unknown {
  if (!stored || typeof stored !== 'object') return stored
  const sealed = (stored as Row)[SEALED_FIELD]
  if (!(sealed instanceof Uint8Array)) return stored
  const row: Row = {}
  for (const [field, value] of Object.entries(stored)) {
    if (rule.plain.has(field)) row[field] = value
  }
  return Object.assign(row, decodeValue(openBytes(keys, context, sealed)))
}

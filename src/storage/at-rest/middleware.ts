import {
  type DBCore,
  type DBCoreCursor,
  type DBCoreKeyRange,
  type DBCoreMutateRequest,
  type DBCoreQuery,
  type DBCoreTable,
  Dexie,
  type Middleware,
} from 'dexie'
import { StorageError } from '../../core/errors.ts'
import type { AtRestState } from './at-rest-state.ts'
import type { AtRestKeys } from './cipher.ts'
import { AT_REST_RULES, type TableRule } from './row-rules.ts'
import { hashValue, openRow, sealContext, sealRow } from './row-seal.ts'

const EQUAL = 1
const RANGE = 2

/**
 * The DBCore middleware of encryption at rest: seals rows on the way into IndexedDB and opens
 * them on the way out, below every other layer (level -10), so Dexie's hooks, caches and the
 * engine see plain rows. Synchronous crypto keeps it inside the transaction (see `cipher.ts`).
 *
 * A DBCore layer rather than Dexie's `creating`/`reading` hooks (the approach `dexie-encrypted`
 * took): hooks miss `bulkGet` reads and cursor values, and cannot rewrite a query, while here
 * every get, cursor and query passes through one place, and an equality query on a hashed field
 * (`[namespace+type+key]`, `tags`) is rewritten to look up the token instead of the text.
 * Only equality queries work on a hashed field: a range over tokens orders nothing.
 */
export function atRestMiddleware(state: AtRestState): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'engram-at-rest',
    level: -10,
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name)
        const rule = AT_REST_RULES[name]
        return rule ? sealedTable(table, rule, state) : table
      },
    }),
  }
}

function sealedTable(table: DBCoreTable, rule: TableRule, state: AtRestState): DBCoreTable {
  const { primaryKey } = table.schema
  const keyPath = primaryKey.autoIncrement ? null : primaryKey.keyPath
  const context = (row: unknown) =>
    sealContext(
      table.name,
      typeof keyPath === 'string' ? (row as Record<string, unknown>)?.[keyPath] : undefined,
    )
  const open = (keys: AtRestKeys | null, row: unknown) =>
    keys && row !== undefined ? openRow(keys, rule, context(row), row) : row
  const query = (keys: AtRestKeys | null, q: DBCoreQuery): DBCoreQuery =>
    keys ? { ...q, range: hashRange(keys, rule, q.index.keyPath, q.range) } : q
  // Dexie's own promises, chained with `then`: an `async` method would hand Dexie a native
  // promise, and the transaction zone (`PSD`) Dexie's upper layers read would be lost on it.
  const guarded = <T>(run: (keys: AtRestKeys | null) => Promise<T>): Promise<T> => {
    try {
      return run(state.keys())
    } catch (error) {
      return Dexie.Promise.reject(error) as Promise<T>
    }
  }
  return {
    ...table,
    mutate: (req) =>
      guarded((keys) => {
        if (!keys || (req.type !== 'add' && req.type !== 'put')) return table.mutate(req)
        const values = req.values.map((row) => sealRow(keys, rule, context(row), row))
        return table.mutate({ ...req, values } as DBCoreMutateRequest)
      }),
    get: (req) => guarded((keys) => table.get(req).then((row) => open(keys, row))),
    getMany: (req) =>
      guarded((keys) => table.getMany(req).then((rows) => rows.map((row) => open(keys, row)))),
    query: (req) =>
      guarded((keys) =>
        table
          .query({ ...req, query: query(keys, req.query) })
          .then((res) =>
            keys && req.values ? { ...res, result: res.result.map((row) => open(keys, row)) } : res,
          ),
      ),
    openCursor: (req) =>
      guarded((keys) =>
        table
          .openCursor({ ...req, query: query(keys, req.query) })
          .then((cursor) =>
            keys && cursor && req.values ? openingCursor(cursor, (row) => open(keys, row)) : cursor,
          ),
      ),
    // A count reads no row: allowed while locked, so stats can still say how much is stored.
    count: (req) =>
      state.locked
        ? table.count(req)
        : guarded((keys) => table.count({ ...req, query: query(keys, req.query) })),
  }
}

/**
 * A cursor whose `value` is opened. IndexedDB's own getters need the real cursor as `this`, so
 * `key` and `primaryKey` are forwarded too; the value is opened once per step.
 */
function openingCursor(cursor: DBCoreCursor, open: (row: unknown) => unknown): DBCoreCursor {
  let raw: unknown
  let opened: unknown
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: {
      get: () => {
        const value = cursor.value
        if (value !== raw) {
          raw = value
          opened = open(value)
        }
        return opened
      },
    },
  }) as DBCoreCursor
}

/** The range with each hashed field's value replaced by its token. */
function hashRange(
  keys: AtRestKeys,
  rule: TableRule,
  keyPath: null | string | string[],
  range: DBCoreKeyRange,
): DBCoreKeyRange {
  if (keyPath === null || (range.type !== EQUAL && range.type !== RANGE)) return range
  const paths = Array.isArray(keyPath) ? keyPath : [keyPath]
  const hashed = paths.flatMap((path, i) => (Object.hasOwn(rule.hashed, path) ? [i] : []))
  if (hashed.length === 0) return range
  const swap = (key: unknown) => {
    if (!Array.isArray(keyPath)) return hashValue(keys, keyPath, key)
    if (!Array.isArray(key)) return key
    return key.map((part, i) => (hashed.includes(i) ? hashValue(keys, keyPath[i]!, part) : part))
  }
  if (range.type === RANGE) {
    // Dexie pads a prefix query with MIN_KEY/MAX_KEY (not strings): those pass; a range between
    // two different texts has no meaning over tokens.
    for (const i of hashed) {
      const at = (k: unknown) => (Array.isArray(keyPath) ? (k as unknown[] | undefined)?.[i] : k)
      const lower = at(range.lower)
      const upper = at(range.upper)
      if ((typeof lower === 'string' || typeof upper === 'string') && lower !== upper) {
        throw new StorageError(
          `an encrypted memory answers only equality queries on ${paths[i]}, got a range`,
        )
      }
    }
  }
  return { ...range, lower: swap(range.lower), upper: swap(range.upper) }
}

import {
  type DBCore,
  type DBCoreCursor,
  type DBCoreKeyRange,
  type DBCoreMutateRequest,
  type DBCoreOpenCursorRequest,
  type DBCoreQuery,
  type DBCoreQueryRequest,
  type DBCoreTable,
  Dexie,
  type Middleware,
} from 'dexie'
import { StorageError } from '../../core/errors.ts'
import type { AtRestState } from './at-rest-state.ts'
import type { AtRestKeys } from './cipher.ts'
import { AT_REST_RULES, type TableRule } from './row-rules.ts'
import { hashValue, openRow, REFUSED, sealRow, type TableKey } from './row-seal.ts'

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
 *
 * A row that does not open (`row-seal.ts` `openRow`: in the clear, edited beside its sealed
 * part, a changed byte) is refused: left out of every answer and noted in `state`, keys-only
 * answers too (their rows are read and opened to tell; `stored-keys.ts` lists every stored key
 * for callers that compare keys with rows). A `count` is IndexedDB's own and includes them.
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
  const at: TableKey = {
    table: table.name,
    keyPath: typeof primaryKey.keyPath === 'string' ? primaryKey.keyPath : undefined,
    auto: primaryKey.autoIncrement === true,
  }
  const keyOf = (row: unknown) =>
    at.keyPath && row && typeof row === 'object'
      ? (row as Record<string, unknown>)[at.keyPath]
      : undefined
  // A row that does not open is left out of the answer and noted, never thrown: one bad row
  // must not fail a listing, an export or a rebuild of the whole memory.
  const open = (keys: AtRestKeys, row: unknown, key: unknown = keyOf(row)): unknown => {
    if (row === undefined) return row
    const opened = openRow(keys, rule, at, row, state.format)
    if (opened === REFUSED) state.noteRefused(at.table, key)
    return opened
  }
  const found = (keys: AtRestKeys, row: unknown) => {
    const opened = open(keys, row)
    return opened === REFUSED ? undefined : opened
  }
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
  // A keys-only cursor walks the values too, to step over the rows that do not open.
  const cursorOf = (keys: AtRestKeys, req: DBCoreOpenCursorRequest) =>
    !req.values && state.listsStoredKeys(req.trans)
      ? table.openCursor(req)
      : table
          .openCursor({ ...req, values: true })
          .then((cursor) => cursor && skippingCursor(cursor, keys, open))
  return {
    ...table,
    mutate: (req) =>
      guarded((keys) => {
        if (!keys) return table.mutate(req)
        const written =
          req.type === 'add' || req.type === 'put'
            ? table.mutate({
                ...req,
                values: req.values.map((row) => sealRow(keys, rule, at, row)),
              } as DBCoreMutateRequest)
            : table.mutate(req)
        return written.then((res) => {
          if (req.type === 'deleteRange') state.noteReplaced(at.table, 'all')
          else if (req.type === 'delete') state.noteReplaced(at.table, req.keys)
          else state.noteReplaced(at.table, res.results ?? req.values.map(keyOf))
          return res
        })
      }),
    get: (req) => guarded((keys) => table.get(req).then((row) => (keys ? found(keys, row) : row))),
    getMany: (req) =>
      guarded((keys) =>
        table.getMany(req).then((rows) => (keys ? rows.map((row) => found(keys, row)) : rows)),
      ),
    query: (req) =>
      guarded((keys) => {
        if (!keys || (!req.values && state.listsStoredKeys(req.trans))) {
          return table.query({ ...req, query: query(keys, req.query) })
        }
        // Keys only: the rows are read to leave out those that do not open, and their keys kept.
        const q = { ...req, values: true, query: query(keys, req.query) }
        const answer = (result: unknown[]) =>
          req.values ? result : result.map((row) => keyOf(row))
        return table.query(q).then((res) => {
          const rows = res.result.map((row) => open(keys, row))
          if (!rows.includes(REFUSED))
            return { ...res, result: req.values ? rows : res.result.map(keyOf) }
          // A page cut short by refused rows would read as the last one: fill it from a cursor.
          if (req.limit !== undefined && res.result.length >= req.limit) {
            return collect(cursorOf(keys, cursorRequest(q)), req.limit).then((result) => ({
              ...res,
              result: answer(result),
            }))
          }
          const kept = res.result.filter((_, i) => rows[i] !== REFUSED)
          return {
            ...res,
            result: req.values ? rows.filter((row) => row !== REFUSED) : kept.map(keyOf),
          }
        })
      }),
    openCursor: (req) =>
      guarded((keys) =>
        keys ? cursorOf(keys, { ...req, query: query(keys, req.query) }) : table.openCursor(req),
      ),
    // A count reads no row: allowed while locked, so stats can still say how much is stored.
    count: (req) =>
      state.locked
        ? table.count(req)
        : guarded((keys) => table.count({ ...req, query: query(keys, req.query) })),
  }
}

/** The cursor a query request would walk, values included. */
function cursorRequest(req: DBCoreQueryRequest): DBCoreOpenCursorRequest {
  const direction = req.direction ?? 'next'
  return {
    trans: req.trans,
    values: true,
    query: req.query,
    reverse: direction.startsWith('prev'),
    unique: direction.endsWith('unique'),
  }
}

/** Up to `limit` values from a cursor (one that skips refused rows). */
function collect(opening: Promise<DBCoreCursor | null>, limit: number): Promise<unknown[]> {
  const out: unknown[] = []
  return opening.then((cursor) => {
    if (!cursor) return out
    return cursor
      .start(() => {
        out.push(cursor.value)
        if (out.length >= limit) cursor.stop()
        else cursor.continue()
      })
      .then(() => out)
  })
}

/**
 * A cursor whose `value` is opened, stepping over rows that do not open. IndexedDB's own
 * getters need the real cursor as `this`, so `key` and `primaryKey` are forwarded too. An
 * `advance(n)` counts refused rows among its `n`.
 */
function skippingCursor(
  cursor: DBCoreCursor,
  keys: AtRestKeys,
  open: (keys: AtRestKeys, row: unknown, key: unknown) => unknown,
): DBCoreCursor {
  let opened: unknown
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: { get: () => opened },
    start: {
      value: (onNext: () => void) =>
        cursor.start(() => {
          const row = open(keys, cursor.value, cursor.primaryKey)
          if (row === REFUSED) {
            cursor.continue()
            return
          }
          opened = row
          onNext()
        }),
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

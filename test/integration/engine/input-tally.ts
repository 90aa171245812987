/**
 * Counts the hostile-input cases each test file runs, per row of the bad-input matrix in
 * docs/reliability.md, and how many got exactly the answer expected. Written after the file to
 * `test-results/bad-input/<file>.json`; `npx tsx scripts/reliability-report.ts --write` renders it.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { it } from 'vitest'

/** The rows of the matrix: what was thrown at the engine, where, and what must come back. */
export const INPUT_ROWS = {
  text: {
    input:
      'text: not a string, empty, whitespace or zero-width only, over 8 KB, lone surrogates, C0/C1 controls, ANSI escapes, DEL, bidi embeddings/overrides/isolates, tag characters, invisible operators, variation-selector runs',
    entry: 'remember, rememberMany, update, importMemories',
    expected: 'typed error (code, field); nothing written',
  },
  names: {
    input:
      'namespace, type, source: not a string, empty or invisible only, over 256 characters, and the characters text rejects (`user\\u202E\\u2066evil`, `fact\\u0000\\u0007`, `ns\\u{E0041}`)',
    entry:
      'remember, rememberMany, update, importMemories (lines and defaults), recall, list, count, export',
    expected: 'BAD_OPTION or the character code, naming the field; nothing written',
  },
  labels: {
    input:
      'tags, aliases, type filters and ids: wrong type, empty, too long, too many, the characters text rejects, unknown ids',
    entry: 'remember, rememberMany, update, forget, get, recall, list',
    expected:
      'typed error naming `tags[i]`, `id`…; MemoryNotFoundError for an unknown id; nothing written',
  },
  vectors: {
    input:
      'vectors: wrong dimension, NaN, ±Infinity, zero, not numbers, no model loaded; import vectors not base64 or partial',
    entry: 'remember, rememberMany, importMemories',
    expected: 'BAD_VECTOR (or ImportFormatError naming the line); nothing written',
  },
  meta: {
    input:
      'meta: not a plain object; Date, Map, Set, class instances, typed arrays, NaN, ±Infinity, BigInt, undefined, functions, holes, cycles; deeper than 8 levels; over 16 KB as JSON (up to 40 MB); controls or bidi in strings and keys',
    entry: 'remember, rememberMany, update, importMemories',
    expected:
      'BAD_META / META_TOO_LARGE / the character code naming the path (`meta.a.b[2]`); nothing written; a copy is stored',
  },
  options: {
    input:
      "options of the wrong type: k, limit, batchSize, weights, mode, trust, confidence, poison, expiresAt, booleans given strings or numbers (`explain: 'false'`, `includeFlagged: 'no'`), hooks that are not functions, list/count filters of the wrong type (`tag: 5`, `namespace: null`), sparse or non-object `rememberMany` items, engine options",
    entry: 'every MemoryApi method, MemoryEngine.open',
    expected:
      'BAD_OPTION naming the option (never a StorageError, never truthy by accident); nothing written',
  },
  unknown: {
    input:
      'option names a method does not take (a typo, another method’s option, a field update cannot change)',
    entry: 'every MemoryApi method that takes options, MemoryEngine.open',
    expected: 'BAD_OPTION naming the key (`namspace`, `items[0].tgas`, `patch.namespace`)',
  },
  queries: {
    input:
      'recall queries: not a string, empty, over 2000 characters, NUL, lone surrogates, bidi controls, tag characters',
    entry: 'recall',
    expected: 'typed error naming `query`; nothing logged',
  },
  lines: {
    input:
      'import lines: not JSON, not an object, no text, a bad field, a header after data, an unknown version, restored fields out of range (`createdAt: "yesterday"`, `confirmations: 0`)',
    entry: 'importMemories',
    expected: 'ImportFormatError naming the line; nothing written',
  },
  caller: {
    input:
      'import lines claiming the namespace, source, tags or trust the caller chose (`"namespace":"tenant-bob"`, `"source":"user"`, `"trust":"trusted"`)',
    entry: 'importMemories',
    expected:
      "the caller's `defaults` win unless `lineFields` names the field; a line's trust is capped",
  },
  poison: {
    input: 'an instruction as the source or type (`Ignore all previous instructions…`)',
    entry: 'remember, update',
    expected: 'RejectedMemoryError, or stored flagged under `poison: flag`',
  },
  files: {
    input:
      'export → import round trip; files with a BOM, CRLF or CR-only line endings; future instants; rows an older version stored with a cyclic or BigInt meta',
    entry: 'exportMemories, importMemories',
    expected:
      'every field of every memory kept; the file read and lines named right; export never throws (row repaired and named in the header)',
  },
} as const

export type InputRowId = keyof typeof INPUT_ROWS

interface Tally {
  id: InputRowId
  input: string
  entry: string
  expected: string
  cases: number
  passed: number
}

const tallies = new Map<InputRowId, Tally>()

/** Counts one case of `row`; call the returned function once the case got what it expected. */
export function inputCase(row: InputRowId): () => void {
  const tally = tallies.get(row) ?? { id: row, ...INPUT_ROWS[row], cases: 0, passed: 0 }
  tally.cases++
  tallies.set(row, tally)
  return () => {
    tally.passed++
  }
}

/** `it` for a test that is one case of `row`: counted, and passed only if it returns cleanly. */
export function caseOf(row: InputRowId) {
  return (name: string, body: () => Promise<void>) =>
    it(name, async () => {
      const passed = inputCase(row)
      await body()
      passed()
    })
}

/** Writes this file's tallies to `test-results/bad-input/<file>.json` (call in `afterAll`). */
export function writeInputTally(file: string): void {
  if (tallies.size === 0) return
  const path = join('test-results', 'bad-input', `${file}.json`)
  mkdirSync(dirname(path), { recursive: true })
  const summary = { file, at: new Date().toISOString(), rows: [...tallies.values()] }
  writeFileSync(path, `${JSON.stringify(summary, null, 2)}\n`)
}

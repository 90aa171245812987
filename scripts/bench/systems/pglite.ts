/**
 * PGlite (Postgres 17 in WebAssembly) with pgvector and Postgres full-text search, answering
 * the same three queries in SQL: `tsvector` (English config, GIN index, terms OR-ed, ranked by
 * `ts_rank_cd`), exact cosine order by `<=>` (no ANN index: flat, like Engram; an HNSW build of
 * 100k vectors alone would take minutes in WebAssembly), and hybrid as reciprocal rank fusion
 * of the top 30 of each (k = 60) in one statement. Rows go in 500 per `INSERT … unnest`.
 */
import type { PGlite } from '@electric-sql/pglite'
import type { BenchSystem, Doc, Mode, Query, SystemEnv } from '../types.ts'

const SCHEMA = `
CREATE TABLE memories (
  id integer PRIMARY KEY,
  text text NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
  embedding vector(384) NOT NULL
);
CREATE INDEX memories_tsv ON memories USING gin (tsv);`

/** plainto_tsquery's lexemes (stop words dropped, stemmed) OR-ed, like the other systems. */
const OR_QUERY = `replace(plainto_tsquery('english', $1)::text, ' & ', ' | ')::tsquery`

const KEYWORD = `SELECT m.id FROM memories m, (SELECT ${OR_QUERY} AS q) x
  WHERE m.tsv @@ x.q ORDER BY ts_rank_cd(m.tsv, x.q) DESC, m.id LIMIT 10`

const VECTOR = 'SELECT id FROM memories ORDER BY embedding <=> $1::vector, id LIMIT 10'

const HYBRID = `WITH q AS (SELECT ${OR_QUERY} AS q),
kw AS (
  SELECT id, row_number() OVER (ORDER BY s DESC, id) AS r FROM (
    SELECT m.id, ts_rank_cd(m.tsv, q.q) AS s FROM memories m, q
    WHERE m.tsv @@ q.q ORDER BY s DESC, m.id LIMIT 30) k),
vec AS (
  SELECT id, row_number() OVER (ORDER BY d, id) AS r FROM (
    SELECT id, embedding <=> $2::vector AS d FROM memories ORDER BY d, id LIMIT 30) v)
SELECT coalesce(kw.id, vec.id) AS id,
  coalesce(1.0 / (60 + kw.r), 0) + coalesce(1.0 / (60 + vec.r), 0) AS score
FROM kw FULL OUTER JOIN vec ON kw.id = vec.id
ORDER BY score DESC, id LIMIT 10`

/** pgvector's text form; 7 decimals keeps the ranking of unit vectors intact. */
function literal(vector: Float32Array): string {
  let out = '['
  for (let i = 0; i < vector.length; i++) {
    if (i > 0) out += ','
    out += String(Math.round((vector[i] as number) * 1e7) / 1e7)
  }
  return `${out}]`
}

export class PGliteSystem implements BenchSystem {
  readonly key = 'pglite'
  readonly modes: readonly Mode[] = ['keyword', 'vector', 'hybrid']
  readonly #env: SystemEnv
  readonly #name: string
  #db: PGlite | undefined

  constructor(env: SystemEnv, name: string) {
    this.#env = env
    this.#name = `pglite-${name}`
  }

  async create(): Promise<void> {
    this.#db = await this.#env.openPGlite(this.#name, true)
    await this.#db.exec(SCHEMA)
  }

  async importAll(docs: Doc[]) {
    const db = this.#pg()
    await db.transaction(async (tx) => {
      for (let i = 0; i < docs.length; i += 500) {
        const batch = docs.slice(i, i + 500)
        await tx.query(
          'INSERT INTO memories (id, text, embedding) SELECT * FROM unnest($1::int[], $2::text[], $3::text[]::vector[])',
          [batch.map((d) => d.id), batch.map((d) => d.text), batch.map((d) => literal(d.vector))],
        )
      }
    })
    await db.exec('CHECKPOINT')
    return undefined
  }

  async remember(doc: Doc): Promise<void> {
    await this.#pg().query(
      'INSERT INTO memories (id, text, embedding) VALUES ($1, $2, $3::vector)',
      [doc.id, doc.text, literal(doc.vector)],
    )
  }

  async recall(query: Query, mode: Mode): Promise<number[]> {
    const db = this.#pg()
    const result =
      mode === 'keyword'
        ? await db.query<{ id: number }>(KEYWORD, [query.text])
        : mode === 'vector'
          ? await db.query<{ id: number }>(VECTOR, [literal(query.vector)])
          : await db.query<{ id: number }>(HYBRID, [query.text, literal(query.vector)])
    return result.rows.map((r) => r.id)
  }

  async vectorTop10(query: Query): Promise<number[]> {
    return this.recall(query, 'vector')
  }

  async close(): Promise<void> {
    await this.#db?.close()
    this.#db = undefined
  }

  async open(): Promise<void> {
    this.#db = await this.#env.openPGlite(this.#name, false)
  }

  async storage() {
    const { rows } = await this.#pg().query<{ bytes: number | string }>(
      'SELECT pg_database_size(current_database()) AS bytes',
    )
    const onDisk = await this.#env.pgliteBytes?.(this.#name)
    return { storedBytes: onDisk ?? Number(rows[0]?.bytes ?? 0) }
  }

  async destroy(): Promise<void> {
    await this.close().catch(() => {})
    await this.#env.dropPGlite(this.#name)
  }

  #pg(): PGlite {
    if (!this.#db) throw new Error('pglite: not open')
    return this.#db
  }
}

/**
 * Builds the page-recall evaluation set in the generic format (shared/eval/README.md) from the
 * documents in docs/ and questions.json: each page is a memory of type `page`; each query names
 * its page as the relevant id and carries `passage`, an exact substring of the page that answers
 * it, for scoring at chunk level (a hit counts when its chunk contains the passage, or the
 * passage's first line when a cut falls inside it).
 *
 *   npx tsx scripts/eval/pages/build-dataset.ts [out.json]   (default: stdout)
 *
 * Every passage must occur exactly once in its page, normalised as `validatePage` stores it;
 * the script fails naming the first one that does not.
 */

import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { validatePage } from '../../../src/core/page/normalize-page.ts'

interface Questions {
  name: string
  pages: { id: string; title: string; file: string }[]
  queries: { q: string; page: string; passage: string; kind: string }[]
}

const here = dirname(fileURLToPath(import.meta.url))
const spec = JSON.parse(readFileSync(join(here, 'questions.json'), 'utf8')) as Questions

const memories = spec.pages.map((page) => ({
  id: page.id,
  type: 'page',
  title: page.title,
  text: validatePage(readFileSync(join(here, page.file), 'utf8'), page.file, 2 * 1024 * 1024),
}))
const textOf = new Map(memories.map((m) => [m.id, m.text]))

const queries = spec.queries.map((query, i) => {
  const text = textOf.get(query.page)
  if (text === undefined) throw new Error(`queries[${i}]: no page ${JSON.stringify(query.page)}`)
  const first = text.indexOf(query.passage)
  if (first === -1 || text.indexOf(query.passage, first + 1) !== -1) {
    throw new Error(`queries[${i}]: the passage must occur exactly once in ${query.page}`)
  }
  return { q: query.q, relevant: [query.page], passage: query.passage, kind: query.kind }
})

const json = `${JSON.stringify({ name: spec.name, memories, queries }, null, 2)}\n`
const out = process.argv[2]
if (out) writeFileSync(out, json)
else process.stdout.write(json)

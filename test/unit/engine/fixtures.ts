import { dedupKey } from '../../../src/core/text.ts'
import type { Memory } from '../../../src/core/types.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { IndexSet } from '../../../src/engine/index/index-set.ts'
import { toMemory } from '../../../src/engine/write/plan.ts'
import type { PreparedWrite } from '../../../src/engine/write/prepare.ts'

/** A validated write with defaults for every field a test does not care about. */
export function write(text: string, fields: Partial<PreparedWrite> = {}): PreparedWrite {
  return {
    text,
    key: dedupKey(text),
    namespace: 'default',
    type: 'fact',
    tags: [],
    aliases: [],
    source: 'agent',
    trust: 'unverified',
    confidence: 0.6,
    flags: [],
    ...fields,
  }
}

/** A stored row, written at time 0, with `fields` over it. */
export function row(id: string, text: string, fields: Partial<Memory> = {}): Memory {
  return { ...toMemory(id, write(text), 0), ...fields }
}

/** Two texts the n-gram embedder puts at a cosine of about 0.985: near duplicates. */
export const NEAR_A =
  'The owner prefers metric units for every measurement in recipes, travel plans and the weekly shopping list'
export const NEAR_B = NEAR_A.replace('prefers metric', 'prefers the metric')

export const embedder = new NgramEmbedder()

/** An index set over `rows`, each with its n-gram passage vector. */
export async function indexed(rows: Memory[]): Promise<IndexSet> {
  const indexes = IndexSet.empty({}, embedder.dims)
  const vectors = await embedder.embed(
    rows.map((r) => r.text),
    { kind: 'passage' },
  )
  rows.forEach((r, i) => {
    indexes.put(r, vectors[i])
  })
  return indexes
}

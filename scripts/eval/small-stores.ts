/**
 * The small-store paraphrase set (issue 26 §2), `data/small-stores.json`: several stores of 5 to
 * 32 facts, each question a paraphrase sharing no index term with its answer (checked with the
 * engine's `analyze`), and off-topic questions per store. Each store carries its half (`split`),
 * fixed by position (a, c, e tune; b, d, f held out) before any result was looked at.
 */
import { readFileSync } from 'node:fs'
import type { EvalSet } from './datasets.ts'

export const SMALL_STORES_FILE = 'scripts/eval/data/small-stores.json'

interface SmallStore {
  name: string
  split: 'tune' | 'holdout'
  memories: { id: string; text: string; type?: string }[]
  queries: { q: string; relevant: string[]; kind?: string }[]
  nonsense: string[]
}

/**
 * One half of the set as an {@link EvalSet}: its stores asked their paraphrase questions, or,
 * with `nonsense`, their off-topic ones (no relevant memory; what counts is the floor's empty
 * share).
 */
export function smallStores(
  half: 'tune' | 'holdout' | 'all',
  ask: 'paraphrase' | 'nonsense' = 'paraphrase',
  path = SMALL_STORES_FILE,
): EvalSet {
  const file = JSON.parse(readFileSync(path, 'utf8')) as { stores: SmallStore[] }
  const stores = file.stores
    .filter((s) => half === 'all' || s.split === half)
    .map((s) => ({
      name: `${s.name} (${s.memories.length} facts)`,
      items: s.memories.map((m) => ({
        keys: [m.id],
        text: m.text,
        ...(m.type ? { type: m.type } : {}),
      })),
      questions:
        ask === 'nonsense'
          ? s.nonsense.map((query) => ({ query, relevant: [], kind: 'nonsense' }))
          : s.queries.map((q) => ({
              query: q.q,
              relevant: q.relevant,
              kind: q.kind ?? 'paraphrase',
            })),
    }))
  return {
    name: `small-stores ${half}${ask === 'nonsense' ? ' × nonsense' : ''}`,
    format: 'generic',
    unit: 'turns',
    stores,
    skipped: {},
    apart: [],
  }
}

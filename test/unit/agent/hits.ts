/** Hand-built recall hits for the formatter's unit tests: no engine, every field chosen. */
import type { Memory, RecallHit } from '../../../src/core/types.ts'

const DAY = 86_400_000
/** 2025-06-01T00:00:00Z, a fixed instant so dates in the output are known. */
export const JUNE_1 = Date.UTC(2025, 5, 1)

let counter = 0

export function memoryOf(patch: Partial<Memory> = {}): Memory {
  const id = patch.id ?? `01TEST${String(++counter).padStart(20, '0')}`
  const text = patch.text ?? `memory number ${counter}`
  return {
    id,
    namespace: 'default',
    type: 'fact',
    text,
    key: text.toLowerCase(),
    tags: [],
    aliases: [],
    source: 'user',
    trust: 'trusted',
    confidence: 0.6,
    tier: 'semantic',
    flags: [],
    createdAt: JUNE_1,
    updatedAt: JUNE_1,
    confirmedAt: JUNE_1 + 3 * DAY,
    confirmations: 1,
    recallCount: 0,
    ...patch,
  }
}

export function hitOf(patch: Partial<Memory> = {}, hit: Partial<RecallHit> = {}): RecallHit {
  const memory = memoryOf(patch)
  return {
    id: memory.id,
    text: memory.text,
    memory,
    rank: 1,
    score: 1,
    fused: 1,
    via: 'kw',
    lists: { keyword: { rank: 1, score: 1 } },
    terms: [],
    boosts: [],
    flagged: memory.flags.length > 0,
    explanation: 'matched [test] (bm25 1.00 #1) -> fused 1.0000 -> #1',
    ...hit,
  }
}

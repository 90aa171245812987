import { describe, expect, it } from 'vitest'
import { notEmbeddedReason, whoAnswers } from '../../../src/app/model-reason.ts'
import type { EmbedderStats } from '../../../src/core/types.ts'

const USE = 'google/universal-sentence-encoder-lite'
const BGE = 'Xenova/bge-small-en-v1.5'
const stats = (fields: Partial<EmbedderStats>): EmbedderStats => ({
  model: BGE,
  dims: 384,
  state: 'ready',
  ...fields,
})

describe('whoAnswers', () => {
  it('names the configured model when it answers', () => {
    expect(whoAnswers(stats({}))).toBe(`${BGE} answers, as configured.`)
  })

  it('names USE-lite and why the configured model does not answer', () => {
    const unreachable = stats({
      model: USE,
      fallback: { from: BGE, reason: 'unreachable', error: 'fetch failed' },
    })
    expect(whoAnswers(unreachable)).toBe(
      `USE-lite answers: ${BGE} cannot be reached (fetch failed).`,
    )
    const failed = stats({ model: USE, fallback: { from: BGE, reason: 'failed', error: 'OOM' } })
    expect(whoAnswers(failed)).toBe(`USE-lite answers: ${BGE} failed to load (OOM).`)
  })

  it('says keywords only when the fallback failed too, and when no model is configured', () => {
    const both = stats({
      model: USE,
      state: 'failed',
      fallback: { from: BGE, reason: 'failed', error: 'no wasm' },
    })
    expect(whoAnswers(both)).toBe(
      `Keywords only: ${BGE} failed to load (no wasm), and USE-lite failed too.`,
    )
    expect(whoAnswers(undefined)).toMatch(/^No model is configured/)
  })
})

describe('notEmbeddedReason', () => {
  it('says nothing when every memory was embedded', () => {
    expect(notEmbeddedReason(49, 49, { embedder: stats({}) })).toBe('')
  })

  it('gives the model’s state as the reason for 0 embedded', () => {
    expect(notEmbeddedReason(49, 0, { embedder: stats({ state: 'loading' }) })).toMatch(
      /still loading/,
    )
    expect(notEmbeddedReason(49, 0, { embedder: stats({ state: 'failed' }) })).toMatch(
      /could not load/,
    )
    expect(notEmbeddedReason(49, 0, {})).toMatch(/no model is configured/)
    expect(notEmbeddedReason(49, 10, { embedder: stats({}) })).toMatch(/background/)
  })
})

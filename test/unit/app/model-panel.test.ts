import { describe, expect, it } from 'vitest'
import { explainModelFailure } from '../../../src/app/model-panel.ts'

describe('explainModelFailure', () => {
  it('names the self-hosted folder and the missing file from the failure the embedder gave', () => {
    const help = explainModelFailure({
      reason: 'not-found',
      file: 'https://app.example/models/m/onnx/model.onnx',
    })
    expect(help).toEqual({
      reason: 'not-found',
      text: 'The model’s files were not found at /models/m/ (onnx/model.onnx is missing). Copy the model there as the self-hosting steps describe, then retry.',
    })
  })

  it('says the hub has no such file for a hub URL', () => {
    const help = explainModelFailure({
      reason: 'not-found',
      file: 'https://huggingface.co/x/y/resolve/main/onnx/model_q8.onnx',
    })
    expect(help.text).toMatch(/^The Hugging Face hub has no onnx\/model_q8\.onnx for this model/)
  })

  it('has words for every reason, and reads no error text', () => {
    const reasons = [
      'offline-only',
      'not-found',
      'unreachable',
      'out-of-memory',
      'damaged',
      'runtime',
      'unknown',
    ] as const
    for (const reason of reasons) {
      const help = explainModelFailure({ reason })
      expect(help.reason).toBe(reason)
      expect(help.text.length).toBeGreaterThan(10)
    }
    expect(explainModelFailure({ reason: 'unreachable' }).text).toMatch(
      /model host could not be reached/,
    )
  })

  it('explains a failure with no classification as unknown', () => {
    expect(explainModelFailure(undefined)).toEqual({
      reason: 'unknown',
      text: 'The model could not load.',
    })
  })
})

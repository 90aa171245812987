import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors.ts'
import { resolveOptions } from '../../../src/embedder/transformers-options.ts'

function fieldOf(run: () => unknown): string | undefined {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as InvalidInputError).code).toBe('BAD_OPTION')
    return (error as InvalidInputError).field
  }
  return undefined
}

describe('resolveOptions', () => {
  it('fills pooling, instruction and dims from the model table', () => {
    const settings = resolveOptions({}, false)
    expect(settings).toMatchObject({
      model: 'Xenova/bge-small-en-v1.5',
      device: 'auto',
      pooling: 'cls',
      expectedDims: 384,
      batchSize: 32,
      trialDevices: undefined,
    })
    expect(settings.instruction).toMatch(/^Represent this sentence/)
  })

  it('accepts trial devices valid for the runtime, each once', () => {
    expect(resolveOptions({ trialDevices: ['cpu', 'webgpu'] }, true).trialDevices).toEqual([
      'cpu',
      'webgpu',
    ])
    expect(resolveOptions({ trialDevices: ['wasm', 'webgpu'] }, false).trialDevices).toEqual([
      'wasm',
      'webgpu',
    ])
  })

  it('rejects trial devices that are empty, repeated, auto or of the other runtime, naming the entry', () => {
    expect(fieldOf(() => resolveOptions({ trialDevices: [] }, true))).toBe('trialDevices')
    expect(fieldOf(() => resolveOptions({ trialDevices: ['cpu', 'cpu'] }, true))).toBe(
      'trialDevices',
    )
    const auto = ['cpu', 'auto'] as unknown as ['cpu']
    expect(fieldOf(() => resolveOptions({ trialDevices: auto }, true))).toBe('trialDevices[1]')
    expect(fieldOf(() => resolveOptions({ trialDevices: ['wasm'] }, true))).toBe('trialDevices[0]')
    expect(fieldOf(() => resolveOptions({ trialDevices: ['cpu'] }, false))).toBe('trialDevices[0]')
  })

  it('rejects an unknown device, a bad batch size and a source given twice', () => {
    expect(fieldOf(() => resolveOptions({ device: 'gpu' as 'auto' }, false))).toBe('device')
    expect(fieldOf(() => resolveOptions({ batchSize: 1025 }, false))).toBe('batchSize')
    expect(fieldOf(() => resolveOptions({ localDir: '/m', modelBase: '/m/' }, true))).toBe(
      'modelBase',
    )
    expect(fieldOf(() => resolveOptions({ localDir: '/m' }, false))).toBe('localDir')
  })
})

import { describe, expect, it } from 'vitest'
import { adapterIdentity, choiceKey, planDevices } from '../../../src/embedder/device-plan.ts'

const GPU = async () => 'nvidia/ampere/0x2204/RTX 3090'
const NO_GPU = async () => undefined

describe('planDevices', () => {
  it('times WASM then WebGPU in a browser with an adapter, in q8 for one download', async () => {
    const plan = await planDevices({ device: 'auto', trialDevices: undefined }, false, GPU)
    expect(plan).toEqual({
      devices: ['wasm', 'webgpu'],
      trial: true,
      trialDtype: 'q8',
      adapter: 'nvidia/ampere/0x2204/RTX 3090',
    })
  })

  it('goes straight to WASM in a browser without an adapter', async () => {
    const plan = await planDevices({ device: 'auto', trialDevices: undefined }, false, NO_GPU)
    expect(plan).toMatchObject({ devices: ['wasm'], trial: false })
  })

  it('falls back in order for a named device, and never asks for the adapter', async () => {
    let asked = 0
    const find = async () => {
      asked++
      return 'x'
    }
    expect(
      (await planDevices({ device: 'webgpu', trialDevices: undefined }, false, find)).devices,
    ).toEqual(['webgpu', 'wasm'])
    expect(
      (await planDevices({ device: 'webgpu', trialDevices: undefined }, true, find)).devices,
    ).toEqual(['webgpu', 'cpu'])
    expect(
      (await planDevices({ device: 'cpu', trialDevices: ['cpu', 'webgpu'] }, true, find)).trial,
    ).toBe(false)
    expect(asked).toBe(0)
  })

  it('uses CPU alone in Node unless trial devices are given', async () => {
    expect(await planDevices({ device: 'auto', trialDevices: undefined }, true, GPU)).toEqual({
      devices: ['cpu'],
      trial: false,
      trialDtype: 'fp32',
    })
    const node = await planDevices({ device: 'auto', trialDevices: ['cpu', 'webgpu'] }, true, GPU)
    expect(node).toMatchObject({ devices: ['cpu', 'webgpu'], trial: true, trialDtype: 'fp32' })
    expect(node.adapter).toBe('nvidia/ampere/0x2204/RTX 3090')
  })

  it('keeps a chosen dtype for the trial', async () => {
    const plan = await planDevices(
      { device: 'auto', trialDevices: undefined, dtype: 'fp16' },
      false,
      GPU,
    )
    expect(plan.trialDtype).toBe('fp16')
  })
})

describe('choiceKey', () => {
  it('differs by model, dtype, candidates and adapter', async () => {
    const base = await planDevices({ device: 'auto', trialDevices: undefined }, false, GPU)
    const keys = new Set([
      choiceKey('m', base),
      choiceKey('other', base),
      choiceKey('m', { ...base, trialDtype: 'fp32' }),
      choiceKey('m', { ...base, devices: ['webgpu', 'wasm'] }),
      choiceKey('m', { ...base, adapter: 'google/swiftshader//' }),
    ])
    expect(keys.size).toBe(5)
    expect(choiceKey('m', base)).toBe(choiceKey('m', { ...base }))
  })
})

describe('adapterIdentity', () => {
  it('joins the adapter info fields and marks the software fallback', () => {
    expect(
      adapterIdentity({
        vendor: 'google',
        architecture: 'swiftshader',
        device: '',
        description: '',
        isFallbackAdapter: true,
      }),
    ).toBe('google/swiftshader///fallback')
    expect(adapterIdentity({ vendor: 'apple', architecture: 'metal-3' })).toBe('apple/metal-3//')
    expect(adapterIdentity(undefined)).toBe('unknown-adapter')
  })
})

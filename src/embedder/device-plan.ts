/**
 * Which devices an embedder tries, whether they are timed against each other, and the key its
 * decision is remembered under: model, dtype, candidates and the WebGPU adapter's identity.
 */

import {
  DEFAULT_EMBEDDER_DTYPE,
  DEFAULT_WASM_DTYPE,
  type EmbedderDtype,
  type EmbedderSettings,
} from './transformers-options.ts'

/** The devices to try, best (or, for a trial, cheapest) first. */
export interface DevicePlan {
  devices: readonly string[]
  /** Time them against each other (`device: 'auto'` with more than one) rather than fall back in order. */
  trial: boolean
  /** The dtype every trial candidate loads, so one download serves them all. */
  trialDtype: EmbedderDtype
  /** The WebGPU adapter's identity, when the plan considered WebGPU and found one. */
  adapter?: string
}

/** Texts timed on each device in the trial: memory-sized sentences. */
export const TRIAL_TEXTS: readonly string[] = Object.freeze([
  'The meeting with the design team moved to Thursday afternoon.',
  'Priya prefers tea to coffee and is allergic to peanuts.',
  'Deploy the staging build with the script in tools/deploy.sh after the tests pass.',
  'The flight to Lisbon leaves at 7:40 from terminal 2.',
  'Remember that the API key for the weather service expires in March.',
  'Use pnpm rather than npm in this repository.',
  'The quarterly report is due on the last Friday of the month.',
  'Her cat is called Miso and needs medicine twice a day.',
])

/** Bumped when the trial's rule changes, so decisions made under the old rule are re-tried. */
const CHOICE_KEY_VERSION = 1

/** The fields of `GPUAdapterInfo` that tell one adapter from another. */
export interface AdapterInfoLike {
  vendor?: string
  architecture?: string
  device?: string
  description?: string
  isFallbackAdapter?: boolean
}

/** One adapter's identity: its info fields, and whether it is the software fallback. */
export function adapterIdentity(info: AdapterInfoLike | undefined): string {
  if (!info) return 'unknown-adapter'
  const fields = [info.vendor, info.architecture, info.device, info.description]
  const name = fields.map((f) => f ?? '').join('/')
  return info.isFallbackAdapter ? `${name}/fallback` : name
}

/** The key a decision is remembered under. */
export function choiceKey(model: string, plan: DevicePlan): string {
  const adapter = plan.adapter ?? 'no-webgpu'
  return [`v${CHOICE_KEY_VERSION}`, model, plan.trialDtype, plan.devices.join(','), adapter].join(
    '|',
  )
}

/**
 * The plan for `settings` in this runtime. `findAdapter` answers with the WebGPU adapter's
 * identity, or `undefined` where there is none; it is asked only when WebGPU is a trial candidate.
 */
export async function planDevices(
  settings: Pick<EmbedderSettings, 'device' | 'trialDevices'> & { dtype?: EmbedderDtype },
  node: boolean,
  findAdapter: () => Promise<string | undefined> = webGpuAdapter,
): Promise<DevicePlan> {
  const { device, trialDevices } = settings
  const fallback = node ? 'cpu' : 'wasm'
  let devices: readonly string[]
  let adapter: string | undefined
  if (device === 'webgpu') devices = ['webgpu', fallback]
  else if (device !== 'auto') devices = [device]
  else if (trialDevices) devices = trialDevices
  else if (node) devices = ['cpu']
  else {
    adapter = await findAdapter()
    devices = adapter === undefined ? ['wasm'] : ['wasm', 'webgpu']
  }
  const trial = device === 'auto' && devices.length > 1
  if (trial && trialDevices && devices.includes('webgpu')) adapter = await findAdapter()
  const trialDtype =
    settings.dtype ?? (devices.includes('wasm') ? DEFAULT_WASM_DTYPE : DEFAULT_EMBEDDER_DTYPE)
  return adapter === undefined
    ? { devices, trial, trialDtype }
    : { devices, trial, trialDtype, adapter }
}

interface GpuLike {
  requestAdapter(): Promise<{
    info?: AdapterInfoLike
    isFallbackAdapter?: boolean
    requestAdapterInfo?(): Promise<AdapterInfoLike>
  } | null>
}

/** The identity of the WebGPU adapter `navigator.gpu` offers, or `undefined` for none. */
export async function webGpuAdapter(): Promise<string | undefined> {
  const gpu = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu
  if (!gpu) return undefined
  try {
    const adapter = await gpu.requestAdapter()
    if (!adapter) return undefined
    // `info` since Chrome 127; before that only the (since removed) requestAdapterInfo().
    const info = adapter.info ?? (await adapter.requestAdapterInfo?.())
    if (!info) return adapterIdentity(undefined)
    // GPUAdapterInfo's fields are getters on its prototype, which a spread would not copy.
    const { vendor, architecture, device, description } = info
    const isFallbackAdapter = (info.isFallbackAdapter ?? adapter.isFallbackAdapter) === true
    return adapterIdentity({ vendor, architecture, device, description, isFallbackAdapter })
  } catch {
    return undefined
  }
}

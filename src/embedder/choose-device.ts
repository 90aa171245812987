/**
 * Picks the device a model runs on: the named one with its fallback, or for `device: 'auto'`
 * the remembered decision, else a capped trial whose winner is remembered.
 */

import { EmbedderUnavailableError } from '../core/errors.ts'
import type { DeviceSource, DeviceTrialStats } from '../core/types.ts'
import { errorText } from './checks.ts'
import type { DeviceChoiceStore } from './device-choice-store.ts'
import { choiceKey, type DevicePlan } from './device-plan.ts'
import {
  DEFAULT_TRIAL_RULE,
  runDeviceTrial,
  type TrialCandidate,
  type TrialRule,
} from './device-trial.ts'

/** A remembered decision older than this is re-tried: browsers and drivers change. */
export const DEVICE_CHOICE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

/** The device picked, its loaded model, and how it was picked. */
export interface DeviceChoiceResult<P> {
  device: string
  loaded: P
  source: DeviceSource
  trial?: DeviceTrialStats
}

export interface ChooseDeviceInput<P> {
  model: string
  plan: DevicePlan
  store: DeviceChoiceStore
  /** How one device is loaded and timed in the trial (its `open` is also the remembered path). */
  candidate(device: string): TrialCandidate<P>
  /** How one device is loaded outside a trial, in its own default dtype. */
  openFixed(device: string): Promise<P>
  rule?: TrialRule
  now?: () => number
}

/** Loads the model on the device `input.plan` leads to; throws `EmbedderUnavailableError`. */
export async function chooseDevice<P>(input: ChooseDeviceInput<P>): Promise<DeviceChoiceResult<P>> {
  const { plan } = input
  if (!plan.trial) return openInOrder(input)
  const key = choiceKey(input.model, plan)
  const now = input.now ?? Date.now
  const remembered = await input.store.get(key).catch(() => undefined)
  let retried: DeviceTrialStats['retried']
  if (
    remembered &&
    plan.devices.includes(remembered.device) &&
    now() - remembered.decidedAt < DEVICE_CHOICE_MAX_AGE_MS
  ) {
    try {
      const loaded = await input.candidate(remembered.device).open()
      return { device: remembered.device, loaded, source: 'remembered', trial: remembered.trial }
    } catch (error) {
      retried = { device: remembered.device, error: errorText(error) }
      await input.store.delete(key).catch(() => {})
    }
  }
  const outcome = await runDeviceTrial(
    plan.devices.map(input.candidate),
    input.rule ?? DEFAULT_TRIAL_RULE,
  )
  const trial = retried ? { ...outcome.stats, retried } : outcome.stats
  if (!outcome.winner) {
    const failures = trial.entries.map((e) => `${e.device}: ${e.error ?? e.cut}`)
    throw new EmbedderUnavailableError(`could not load ${input.model}: ${failures.join('; ')}`)
  }
  const { device, loaded } = outcome.winner
  await input.store.set(key, { device, decidedAt: now(), trial }).catch(() => {})
  return { device, loaded, source: 'trial', trial }
}

async function openInOrder<P>(input: ChooseDeviceInput<P>): Promise<DeviceChoiceResult<P>> {
  const failures: string[] = []
  for (const device of input.plan.devices) {
    try {
      return { device, loaded: await input.openFixed(device), source: 'fixed' }
    } catch (error) {
      failures.push(`${device}: ${errorText(error)}`)
    }
  }
  throw new EmbedderUnavailableError(`could not load ${input.model}: ${failures.join('; ')}`)
}

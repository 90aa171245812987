import { USE_LITE_MODEL } from '../embedder/index.ts'
import { EMBEDDER_DEVICES, type EmbedderChoice, type EmbedderDevice } from '../index.ts'

type UseChoice = Extract<EmbedderChoice, { kind: 'use' }>

/** What the app opens: the saved settings, overridden for one visit by the URL. */
export interface AppSettings {
  /** Memory (database) name. `?memory=` @default 'engram-app' */
  memory: string
  /**
   * `?model=`: a transformers.js model id (USE-lite answers while it cannot), `use` (USE-lite,
   * served by this app: semantic recall without the Hugging Face hub, from the first visit
   * offline), `ngram` (hashed n-grams, no download) or `none` (keyword-only).
   * @default 'use' (the build's `VITE_ENGRAM_MODEL` when set)
   */
  model: string
  /** `?device=` @default 'auto' */
  device: EmbedderDevice
  /** `?remote=0` forbids the Hugging Face hub: self-hosted (or cached) models only. @default true */
  allowRemote: boolean
}

/** The app's model when nothing chose one: USE-lite, the encoder that works from the first visit. */
export const DEFAULT_APP_MODEL = 'use'

/** The app's memory when nothing chose one. */
export const DEFAULT_APP_MEMORY = 'engram-app'

const STORAGE_KEY = 'engram.settings'
const DEVICES: readonly EmbedderDevice[] = EMBEDDER_DEVICES

/** The URL parameter of each setting. */
export const SETTING_PARAMS: Readonly<Record<keyof AppSettings, string>> = {
  memory: 'memory',
  model: 'model',
  device: 'device',
  allowRemote: 'remote',
}

/**
 * Reads the settings: a URL parameter wins for this visit only (it is never saved, so one visit
 * with `?model=use` leaves `/` as it was); otherwise what the user saved in the app
 * ({@link saveSettings}); then the build-time env, then the defaults.
 *
 * @example
 * // at /?model=engram-test/tiny&device=wasm, nothing saved
 * readSettings() // => { memory: 'engram-app', model: 'engram-test/tiny', device: 'wasm', allowRemote: true }
 * // then at /
 * readSettings() // => { memory: 'engram-app', model: 'use', device: 'auto', allowRemote: true }
 */
export function readSettings(url = new URL(location.href)): AppSettings {
  const saved = savedSettings()
  const q = url.searchParams
  const device = q.get('device') ?? saved.device
  return {
    memory: q.get('memory') || saved.memory,
    model: q.get('model') || saved.model,
    device: DEVICES.includes(device as EmbedderDevice) ? (device as EmbedderDevice) : 'auto',
    allowRemote: q.has('remote') ? q.get('remote') !== '0' : saved.allowRemote,
  }
}

/**
 * The settings this visit's URL overrides, with the value it gives each, so the app can say
 * that they hold for this visit only and offer to keep them.
 *
 * @example
 * // at /?model=use
 * urlOverrides() // => { model: 'use' }
 */
export function urlOverrides(
  url = new URL(location.href),
): Partial<Record<keyof AppSettings, string>> {
  const found: Partial<Record<keyof AppSettings, string>> = {}
  for (const [setting, param] of Object.entries(SETTING_PARAMS) as [keyof AppSettings, string][]) {
    const value = url.searchParams.get(param)
    if (value !== null && value !== '') found[setting] = value
  }
  return found
}

/** What the user saved (or the defaults): the settings a visit without parameters opens. */
export function savedSettings(): AppSettings {
  const saved = loadSaved()
  const envModel = import.meta.env.VITE_ENGRAM_MODEL as string | undefined
  return {
    memory:
      typeof saved.memory === 'string' && saved.memory !== '' ? saved.memory : DEFAULT_APP_MEMORY,
    model:
      typeof saved.model === 'string' && saved.model !== ''
        ? saved.model
        : envModel || DEFAULT_APP_MODEL,
    device: DEVICES.includes(saved.device as EmbedderDevice)
      ? (saved.device as EmbedderDevice)
      : 'auto',
    allowRemote: saved.allowRemote !== false,
  }
}

/** Saves settings for the visits to come (the passphrase is never among them). */
export function saveSettings(patch: Partial<AppSettings>): AppSettings {
  const next = { ...savedSettings(), ...patch }
  remember(STORAGE_KEY, JSON.stringify(next))
  return next
}

/** The `?model=` value that picks USE-lite, whose files the app ships and precaches. */
export const USE_CHOICE = 'use'

/**
 * The embedder the worker should build. A model found under `/models/<id>/` on this origin is
 * loaded from there (and cached by the service worker); otherwise from the Hugging Face hub.
 * ONNX Runtime always comes from this origin. USE-lite and TF.js' wasm are always this origin's.
 */
export async function embedderChoice(
  settings: AppSettings,
  base = appBase(),
): Promise<EmbedderChoice> {
  if (settings.model === 'none') return { kind: 'none' }
  if (settings.model === 'ngram') return { kind: 'ngram' }
  if (settings.model === USE_CHOICE || settings.model === USE_LITE_MODEL) return useChoice(base)
  const use = useChoice(base)
  const modelBase = new URL('models/', base).href
  const selfHosted = await isSelfHosted(new URL(`${settings.model}/config.json`, modelBase).href)
  return {
    kind: 'transformers',
    model: settings.model,
    ...(selfHosted ? { modelBase } : {}),
    allowRemote: selfHosted || settings.allowRemote,
    device: settings.device,
    // While the model cannot answer (offline on a first visit, blocked, failed), USE-lite does.
    fallback: use,
  }
}

/** USE-lite from this app's own files. */
function useChoice(base: string): UseChoice {
  return {
    kind: 'use',
    // Absolute: the worker would resolve a relative URL against its own script.
    modelUrl: new URL(`models/${USE_LITE_MODEL}/`, base).href,
    wasmPaths: new URL('tfjs/', base).href,
  }
}

/**
 * Whether `config.json` is served from this origin. Offline, before the service worker has
 * cached the answer, the last known answer stands, so a reload without network loads the model
 * from the same place (and cache) as before.
 */
async function isSelfHosted(configUrl: string): Promise<boolean> {
  const key = `engram.selfHosted:${configUrl}`
  try {
    const response = await fetch(configUrl)
    // A dev server's HTML fallback answers 200 too; only JSON counts.
    const found = response.ok && (response.headers.get('content-type') ?? '').includes('json')
    remember(key, found ? '1' : '0')
    return found
  } catch {
    return recall(key) === '1'
  }
}

function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value)
  } catch {}
}

function recall(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

/** The app's root URL, absolute: the worker resolves relative URLs against its own script. */
export function appBase(): string {
  return new URL(import.meta.env.BASE_URL, location.href).href
}

function loadSaved(): Partial<AppSettings> {
  try {
    return JSON.parse(recall(STORAGE_KEY) ?? '{}') as Partial<AppSettings>
  } catch {
    return {}
  }
}

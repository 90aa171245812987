import { USE_LITE_MODEL } from '../embedder/index.ts'
import {
  DEFAULT_MODEL,
  EMBEDDER_DEVICES,
  type EmbedderChoice,
  type EmbedderDevice,
} from '../index.ts'

/** What the app opens, from the URL, then localStorage, then build-time env, then defaults. */
export interface AppSettings {
  /** Memory (database) name. `?memory=` @default 'engram-app' */
  memory: string
  /**
   * `?model=`: a transformers.js model id, `use` (USE-lite, served by this app: semantic recall
   * without the Hugging Face hub), `ngram` (hashed n-grams, no download) or `none` (keyword-only).
   */
  model: string
  /** `?device=` @default 'auto' */
  device: EmbedderDevice
  /** `?remote=0` forbids the Hugging Face hub: self-hosted (or cached) models only. @default true */
  allowRemote: boolean
}

const STORAGE_KEY = 'engram.settings'
const DEVICES: readonly EmbedderDevice[] = EMBEDDER_DEVICES

/**
 * Reads the settings; URL parameters win and are remembered, so a bookmark with `?model=…`
 * keeps working after the query string is gone.
 *
 * @example
 * // at /?model=engram-test/tiny&device=wasm
 * readSettings() // => { memory: 'engram-app', model: 'engram-test/tiny', device: 'wasm', allowRemote: true }
 */
export function readSettings(url = new URL(location.href)): AppSettings {
  const saved = loadSaved()
  const q = url.searchParams
  const envModel = import.meta.env.VITE_ENGRAM_MODEL as string | undefined
  const device = q.get('device') ?? saved.device
  const settings: AppSettings = {
    memory: q.get('memory') || saved.memory || 'engram-app',
    model: q.get('model') || saved.model || envModel || DEFAULT_MODEL,
    device: DEVICES.includes(device as EmbedderDevice) ? (device as EmbedderDevice) : 'auto',
    allowRemote: (q.get('remote') ?? (saved.allowRemote === false ? '0' : '1')) !== '0',
  }
  remember(STORAGE_KEY, JSON.stringify(settings))
  return settings
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
  if (settings.model === USE_CHOICE || settings.model === USE_LITE_MODEL) {
    return {
      kind: 'use',
      // Absolute: the worker would resolve a relative URL against its own script.
      modelUrl: new URL(`models/${USE_LITE_MODEL}/`, base).href,
      wasmPaths: new URL('tfjs/', base).href,
    }
  }
  const modelBase = new URL('models/', base).href
  const selfHosted = await isSelfHosted(new URL(`${settings.model}/config.json`, modelBase).href)
  return {
    kind: 'transformers',
    model: settings.model,
    ...(selfHosted ? { modelBase } : {}),
    allowRemote: selfHosted || settings.allowRemote,
    device: settings.device,
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

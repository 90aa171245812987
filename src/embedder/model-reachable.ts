/**
 * A cheap answer, before a memory opens, to "could this transformers.js model load now?": is its
 * `config.json` in the browser cache, or can it be fetched? The fallback chain asks it so that an
 * offline first visit settles on the bundled model at once, instead of opening the memory under
 * a model that cannot answer and switching after a failed multi-megabyte download.
 */

import { errorText } from './checks.ts'

/** The Hugging Face hub, where transformers.js looks for a model without `modelBase`. */
export const HUB_HOST = 'https://huggingface.co/'

/** transformers.js' Cache Storage name (`env.cacheKey`). */
export const TRANSFORMERS_CACHE = 'transformers-cache'

/**
 * How long the probe waits for `config.json` before calling the model unreachable. A blocked or
 * offline hub fails at once; this only bounds a network that swallows requests.
 */
export const PROBE_TIMEOUT_MS = 8000

/** Where the model lives; the fields of `TransformersEmbedderOptions` that decide it. */
export interface ModelLocation {
  model: string
  /** Self-hosted base URL: `<modelBase><model>/config.json`. */
  modelBase?: string
  /** Node folder holding `<model>/`: always counted as reachable (the load reports a gap). */
  localDir?: string
  /** @default true */
  allowRemote?: boolean
}

/** The probe's answer: reachable, or not and why. */
export type Reachability = { reachable: true } | { reachable: false; error: string }

/** What the probe needs from its environment; injected in tests. */
export interface ProbeEnvironment {
  fetch?: typeof globalThis.fetch
  caches?: CacheStorage
  /** @default PROBE_TIMEOUT_MS */
  timeoutMs?: number
}

/**
 * Asks the cache, then the network, for the model's `config.json`. Errs on the side of
 * "reachable" wherever it cannot tell (no fetch, a Node folder): then the load itself decides,
 * and a failed load still falls back.
 *
 * @example
 * await modelReachable({ model: 'Xenova/bge-small-en-v1.5' }) // with the hub blocked
 * // => { reachable: false, error: 'https://huggingface.co/…/config.json: fetch failed' }
 */
export async function modelReachable(
  location: ModelLocation,
  env: ProbeEnvironment = {},
): Promise<Reachability> {
  if (location.localDir !== undefined) return { reachable: true }
  const caches = env.caches ?? (globalThis as { caches?: CacheStorage }).caches
  if (caches && (await inCache(caches, location.model))) return { reachable: true }
  if (location.allowRemote === false) {
    return { reachable: false, error: `${location.model} is not cached and remote loading is off` }
  }
  const fetchFile = env.fetch ?? globalThis.fetch
  if (!fetchFile) return { reachable: true }
  const url = configUrl(location)
  try {
    const response = await fetchFile(url, {
      signal: AbortSignal.timeout(env.timeoutMs ?? PROBE_TIMEOUT_MS),
    })
    // The body is a few hundred bytes; reading it lets the connection be reused for the load.
    await response.arrayBuffer().catch(() => {})
    if (response.ok) return { reachable: true }
    return { reachable: false, error: `${url}: HTTP ${response.status}` }
  } catch (error) {
    return { reachable: false, error: `${url}: ${errorText(error)}` }
  }
}

/** `config.json` under `modelBase`, else on the hub's main revision. */
export function configUrl(location: ModelLocation): string {
  const { model, modelBase } = location
  if (modelBase !== undefined) return new URL(`${model}/config.json`, withSlash(modelBase)).href
  return `${HUB_HOST}${model}/resolve/main/config.json`
}

function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`
}

/**
 * Whether transformers.js has cached this model's `config.json` (its keys are the URLs it
 * fetched, hub or self-hosted). `has` first: `open` would create an empty cache as a side effect.
 */
async function inCache(caches: CacheStorage, model: string): Promise<boolean> {
  try {
    if (!(await caches.has(TRANSFORMERS_CACHE))) return false
    const cache = await caches.open(TRANSFORMERS_CACHE)
    const keys = await cache.keys()
    return keys.some((request) => {
      const path = new URL(request.url).pathname
      return (
        path.endsWith(`/${model}/resolve/main/config.json`) ||
        path.endsWith(`/${model}/config.json`)
      )
    })
  } catch {
    // Cache Storage refuses opaque origins and some private modes; the network decides then.
    return false
  }
}

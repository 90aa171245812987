import * as Comlink from 'comlink'
import { badOption, isObject } from '../core/check-options.ts'
import { AccessDeniedError, errorToData, MemoryNotFoundError } from '../core/errors.ts'

// The scope's checks are core's, under the names its callers import from here.
export { badOption, isObject }

/** The namespaces granted to one origin at the moment of one call. */
export class Namespaces {
  readonly #origin: string
  readonly #granted: string[]
  constructor(origin: string, granted: string[]) {
    this.#origin = origin
    this.#granted = granted
  }

  has(namespace: string): boolean {
    return this.#granted.includes(namespace)
  }

  /** `options` with its namespace pinned: the default one when absent, refused when not granted. */
  pin<T extends { namespace?: string }>(options: T | undefined, field?: string): T {
    if (options !== undefined && !isObject(options)) {
      throw badOption(field ?? 'options', 'an options object', options)
    }
    const asked = options?.namespace
    if (asked === undefined) return { ...options, namespace: this.#granted[0] } as T
    if (!this.has(asked)) {
      throw new AccessDeniedError(
        this.#origin,
        `${this.#origin} may use namespaces ${JSON.stringify(this.#granted)}, not ${JSON.stringify(asked)}`,
      )
    }
    return options as T
  }
}

/** Runs a scoped call; a refusal thrown here leaves as data (the engine's errors already are). */
export async function guard<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    throw error instanceof Error ? errorToData(error) : error
  }
}

export function notFound(id: unknown): MemoryNotFoundError {
  return new MemoryNotFoundError(typeof id === 'string' ? id : String(id))
}

/** Releases a Comlink proxy the origin passed (a listener, a select hook), so its port can close. */
export function releaseProxy(proxy: unknown): void {
  const release = (proxy as Partial<Comlink.ProxyMethods> | undefined)?.[Comlink.releaseProxy]
  release?.()
}

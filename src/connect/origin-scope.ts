import {
  AccessDeniedError,
  errorToData,
  InvalidInputError,
  MemoryNotFoundError,
} from '../core/errors.ts'
import type { Memory, RecallResult } from '../core/types.ts'
import type { MemoryMethod, RemoteMemoryApi } from '../host/protocol.ts'

/** What the scope asks before every call: is the origin still allowed, and to which namespaces? */
export interface OriginAccess {
  /** The embedding page's origin. */
  origin: string
  /**
   * The namespaces the origin may use now, its default first; throws an `AccessDeniedError`
   * once the user has revoked or denied it. Asked on every call, so a revocation in "Connected
   * sites" refuses the very next one, without a reload.
   */
  namespaces(): Promise<string[]>
}

/**
 * The methods another origin is not offered: the recall log and stats describe every
 * namespace, `verify` and `review` are the owner's housekeeping, and an import could claim any
 * namespace.
 */
export const NOT_OFFERED_TO_ORIGINS = [
  'recallLog',
  'clearRecallLog',
  'stats',
  'verify',
  'review',
  'importMemories',
] as const satisfies readonly MemoryMethod[]

/**
 * The memory as one origin may use it: every call is checked against the allow-list first, its
 * namespace is forced to one the origin was granted (its own, `origin:<origin>`, unless the user
 * gave more), ids outside those namespaces do not exist for it, and the methods in
 * {@link NOT_OFFERED_TO_ORIGINS} are refused. Errors are thrown as data, as the host's are.
 *
 * @example
 * const scoped = scopeToOrigin(api, { origin: 'https://example.test', namespaces: async () => ['origin:https://example.test'] })
 * await scoped.remember('Prefers tea') // stored in namespace 'origin:https://example.test'
 * await scoped.stats() // => throws AccessDeniedError (as data)
 */
export function scopeToOrigin(api: RemoteMemoryApi, access: OriginAccess): RemoteMemoryApi {
  const allowed = async (): Promise<Namespaces> =>
    new Namespaces(access.origin, await access.namespaces())
  const owned = async (...ids: unknown[]): Promise<Namespaces> => {
    const scope = await allowed()
    for (const id of ids) {
      const memory = typeof id === 'string' ? await api.get(id) : undefined
      if (!memory || !scope.has(memory.namespace)) throw notFound(id)
    }
    return scope
  }
  /** A page id that is new, or names a page of the origin's: another's page does not exist for it. */
  const ownPage = async (pageId: unknown, mustExist: boolean): Promise<Namespaces> => {
    const scope = await allowed()
    const page = typeof pageId === 'string' ? await api.getPage(pageId) : undefined
    if (page ? !scope.has(page.namespace) : mustExist) throw notFound(pageId)
    return scope
  }
  const refused = (method: MemoryMethod) => async (): Promise<never> =>
    guard(async () => {
      await allowed()
      throw new AccessDeniedError(access.origin, `${method}() is not offered to other origins`)
    })

  const scoped: RemoteMemoryApi = {
    remember: (text, options) =>
      guard(async () => api.remember(text, (await allowed()).pin(options, 'options'))),
    rememberMany: (items) =>
      guard(async () => {
        const scope = await allowed()
        if (!Array.isArray(items)) throw badOption('items', 'an array of items', items)
        return api.rememberMany(items.map((item) => (isObject(item) ? scope.pin(item) : item)))
      }),
    update: (id, patch) =>
      guard(async () => {
        await owned(id)
        return api.update(id, patch)
      }),
    forget: (id) =>
      guard(async () => {
        await owned(id)
        return api.forget(id)
      }),
    get: (id) =>
      guard(async () => {
        const scope = await allowed()
        const memory: Memory | undefined = await api.get(id)
        return memory && scope.has(memory.namespace) ? memory : undefined
      }),
    list: (options) => guard(async () => api.list((await allowed()).pin(options, 'options'))),
    count: (filter) => guard(async () => api.count((await allowed()).pin(filter, 'filter'))),
    recall: (query, options, select) =>
      guard(async () => {
        const scope = await allowed()
        const result: RecallResult = await api.recall(query, scope.pin(options, 'options'), select)
        // The namespace filter already holds; this keeps it true whatever recall learns next.
        return { ...result, hits: result.hits.filter((hit) => scope.has(hit.memory.namespace)) }
      }),
    exportMemories: (options) =>
      guard(async () => api.exportMemories((await allowed()).pin(options, 'options'))),
    rememberPage: (input) =>
      guard(async () => {
        if (!isObject(input)) throw badOption('input', 'a page object', input)
        const scope = await ownPage(input.pageId, false)
        return api.rememberPage(scope.pin(input))
      }),
    getPage: (pageId) =>
      guard(async () => {
        const scope = await allowed()
        const page = await api.getPage(pageId)
        return page && scope.has(page.namespace) ? page : undefined
      }),
    forgetPage: (pageId) =>
      guard(async () => {
        await ownPage(pageId, true)
        return api.forgetPage(pageId)
      }),
    listPages: (options) =>
      guard(async () => api.listPages((await allowed()).pin(options, 'options'))),
    relate: (fromId, toId, kind) =>
      guard(async () => {
        await owned(fromId, toId)
        return api.relate(fromId, toId, kind)
      }),
    unrelate: (fromId, toId, kind) =>
      guard(async () => {
        await owned(fromId, toId)
        return api.unrelate(fromId, toId, kind)
      }),
    relations: (id) =>
      guard(async () => {
        const scope = await owned(id)
        const edges = await api.relations(id)
        const mine = await Promise.all(
          edges.map(async (edge) => {
            const other = await api.get(edge.from === id ? edge.to : edge.from)
            return other !== undefined && scope.has(other.namespace)
          }),
        )
        return edges.filter((_, i) => mine[i])
      }),
    feedback: (id, verdict) =>
      guard(async () => {
        await owned(id)
        return api.feedback(id, verdict)
      }),
    close: () => api.close(),
    recallLog: refused('recallLog'),
    clearRecallLog: refused('clearRecallLog'),
    stats: refused('stats'),
    verify: refused('verify'),
    review: refused('review'),
    importMemories: refused('importMemories'),
  }
  return scoped
}

/** The namespaces granted at the moment of one call. */
class Namespaces {
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
async function guard<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    throw error instanceof Error ? errorToData(error) : error
  }
}

function notFound(id: unknown): MemoryNotFoundError {
  return new MemoryNotFoundError(typeof id === 'string' ? id : String(id))
}

function badOption(field: string, expected: string, got: unknown): InvalidInputError {
  const kind = got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got
  return new InvalidInputError('BAD_OPTION', field, `expected ${expected}, got ${kind}`)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

import * as Comlink from 'comlink'
import { AccessDeniedError } from '../core/errors.ts'
import type { Memory, RecallHit, RememberOptions } from '../core/types.ts'
import type { RemoteMemoryApi } from '../host/protocol.ts'
import {
  badOption,
  guard,
  isObject,
  Namespaces,
  notFound,
  releaseProxy,
} from './origin-namespaces.ts'
import { hostProvenance } from './origin-provenance.ts'
import { hitsForOrigin, resultForOrigin } from './origin-redaction.ts'

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
 * namespace, `verify` and `review` are the owner's housekeeping, an import could claim any
 * namespace, sync (with its handle's `syncControl`) replicates all of them to a server of
 * the caller's choosing, and locking or unlocking encryption at rest is the owner's to do.
 */
export const NOT_OFFERED_TO_ORIGINS = [
  'recallLog',
  'clearRecallLog',
  'stats',
  'verify',
  'review',
  'importMemories',
  'sync',
  'syncControl',
  'lock',
  'unlock',
] as const satisfies readonly (keyof RemoteMemoryApi)[]

type NotOffered = (typeof NOT_OFFERED_TO_ORIGINS)[number]
/** Every method not refused must be scoped below, or this does not compile. */
type Offered = Pick<RemoteMemoryApi, Exclude<keyof RemoteMemoryApi, NotOffered>>

/** What each group of scoped methods shares: the memory, the origin, its grants per call. */
interface Scope {
  api: RemoteMemoryApi
  origin: string
  allowed(): Promise<Namespaces>
}

/**
 * The memory as one origin may use it: every call is checked against the allow-list first, its
 * namespace is forced to one the origin was granted (its own, `origin:<origin>`, unless the user
 * gave more), ids outside those namespaces do not exist for it (a relation needs both ends in
 * them: `AccessDeniedError`; a `supersedes` naming one is `MemoryNotFoundError`, as for an id
 * that does not exist), no answer names one (a hit's explanation, a write's `related`, a select
 * hook's candidates), the host decides its writes' `source`, `trust` and `poison`
 * ({@link hostProvenance}), and the methods in {@link NOT_OFFERED_TO_ORIGINS} are refused.
 * Errors are thrown as data, as the host's are.
 *
 * @example
 * const scoped = scopeToOrigin(api, { origin: 'https://example.test', namespaces: async () => ['origin:https://example.test'] })
 * await scoped.remember('Prefers tea') // stored in namespace 'origin:https://example.test'
 * await scoped.stats() // => throws AccessDeniedError (as data)
 */
export function scopeToOrigin(api: RemoteMemoryApi, access: OriginAccess): RemoteMemoryApi {
  const scope: Scope = {
    api,
    origin: access.origin,
    allowed: async () => new Namespaces(access.origin, await access.namespaces()),
  }
  const offered: Offered = {
    ...memoryMethods(scope),
    ...pageMethods(scope),
    ...curationMethods(scope),
    close: () => api.close(),
  }
  const refused = Object.fromEntries(
    NOT_OFFERED_TO_ORIGINS.map((method) => [
      method,
      () =>
        guard(async () => {
          await scope.allowed()
          throw new AccessDeniedError(access.origin, `${method}() is not offered to other origins`)
        }),
    ]),
  ) as unknown as Pick<RemoteMemoryApi, NotOffered>
  return { ...offered, ...refused }
}

/** A memory of the origin's namespaces, or `MemoryNotFoundError`: another's does not exist for it. */
async function ownMemory(scope: Scope, id: unknown): Promise<Namespaces> {
  const granted = await scope.allowed()
  await mustSee(scope.api, granted, id)
  return granted
}

/** One answer for an id that does not exist and one of another namespace: no existence oracle. */
async function mustSee(api: RemoteMemoryApi, granted: Namespaces, id: unknown): Promise<void> {
  const memory = typeof id === 'string' ? await api.get(id) : undefined
  if (!memory || !granted.has(memory.namespace)) throw notFound(id)
}

/**
 * A write's options as the origin may give them: its namespace pinned, the host's provenance,
 * and a `supersedes` that names one of its own memories (else the engine would hide another
 * namespace's memory from its owner's recall). A `supersedes` of the wrong type is left to the
 * engine's check.
 */
async function writeOptions<T extends RememberOptions>(
  scope: Scope,
  granted: Namespaces,
  options: T | undefined,
  field: string,
): Promise<T> {
  const own = hostProvenance(scope.origin, granted.pin(options, field), field)
  if (typeof own.supersedes === 'string') await mustSee(scope.api, granted, own.supersedes)
  return own
}

function memoryMethods(scope: Scope) {
  const { api, allowed, origin } = scope
  return {
    remember: (text, options) =>
      guard(async () => {
        const granted = await allowed()
        const checked = await writeOptions(scope, granted, options, 'options')
        return resultForOrigin(api, granted, await api.remember(text, checked))
      }),
    rememberMany: (items) =>
      guard(async () => {
        const granted = await allowed()
        if (!Array.isArray(items)) throw badOption('items', 'an array of items', items)
        const checked = []
        for (const [i, item] of items.entries()) {
          checked.push(
            isObject(item) ? await writeOptions(scope, granted, item, `items[${i}]`) : item,
          )
        }
        const results = await api.rememberMany(checked)
        return Promise.all(results.map((result) => resultForOrigin(api, granted, result)))
      }),
    update: (id, patch) =>
      guard(async () => {
        await ownMemory(scope, id)
        return api.update(id, isObject(patch) ? hostProvenance(origin, patch, 'patch') : patch)
      }),
    forget: (id) =>
      guard(async () => {
        await ownMemory(scope, id)
        return api.forget(id)
      }),
    get: (id) =>
      guard(async () => {
        const granted = await allowed()
        const memory: Memory | undefined = await api.get(id)
        return memory && granted.has(memory.namespace) ? memory : undefined
      }),
    list: (options) => guard(async () => api.list((await allowed()).pin(options, 'options'))),
    count: (filter) => guard(async () => api.count((await allowed()).pin(filter, 'filter'))),
    recall: (query, options, select) =>
      guard(async () => {
        const granted = await allowed()
        // The origin's judge sees the candidates as the origin may: their explanations too.
        const judge =
          select &&
          Comlink.proxy(async (q: string, hits: RecallHit[]) =>
            select(q, await hitsForOrigin(api, granted, hits)),
          )
        try {
          const result = await api.recall(query, granted.pin(options, 'options'), judge)
          // The namespace filter already holds; this keeps it true whatever recall learns next.
          return { ...result, hits: await hitsForOrigin(api, granted, result.hits) }
        } finally {
          releaseProxy(select)
        }
      }),
    exportMemories: (options) =>
      guard(async () => api.exportMemories((await allowed()).pin(options, 'options'))),
  } satisfies Partial<Offered>
}

/**
 * Pages: stored in the origin's namespace, and a page of another namespace reads as not found
 * (`getPage` answers undefined, `forgetPage` and an overwrite by `rememberPage` throw
 * `MemoryNotFoundError`), so an origin cannot learn that it exists. For the same reason its
 * `rememberPage` may name by `pageId` only a page of its own: a new id is not found either.
 */
function pageMethods({ api, allowed, origin }: Scope) {
  const ownPage = async (pageId: unknown, mustExist: boolean): Promise<Namespaces> => {
    const granted = await allowed()
    const page = typeof pageId === 'string' ? await api.getPage(pageId) : undefined
    if (page ? !granted.has(page.namespace) : mustExist) throw notFound(pageId)
    return granted
  }
  return {
    rememberPage: (input) =>
      guard(async () => {
        if (!isObject(input)) throw badOption('input', 'a page object', input)
        // A new id would name a new page, but then an id in use elsewhere would answer otherwise.
        const granted = await ownPage(input.pageId, input.pageId !== undefined)
        return api.rememberPage(hostProvenance(origin, granted.pin(input, 'input'), 'input'))
      }),
    getPage: (pageId) =>
      guard(async () => {
        const granted = await allowed()
        const page = await api.getPage(pageId)
        return page && granted.has(page.namespace) ? page : undefined
      }),
    forgetPage: (pageId) =>
      guard(async () => {
        await ownPage(pageId, true)
        return api.forgetPage(pageId)
      }),
    listPages: (options) =>
      guard(async () => api.listPages((await allowed()).pin(options, 'options'))),
  } satisfies Partial<Offered>
}

/**
 * Relations and feedback: every id named must be a memory of the origin's namespaces, else
 * `AccessDeniedError` (the same answer for one that does not exist, so it learns nothing);
 * `relations` lists only the edges whose other end is one of its memories too.
 */
function curationMethods(scope: Scope) {
  const { api, allowed, origin } = scope
  const mine = async (...ids: unknown[]): Promise<Namespaces> => {
    const granted = await allowed()
    for (const id of ids) {
      const memory = typeof id === 'string' ? await api.get(id) : undefined
      if (!memory || !granted.has(memory.namespace)) {
        throw new AccessDeniedError(
          origin,
          `${origin} may relate and rate only memories of its namespaces; ${JSON.stringify(id)} is not one`,
        )
      }
    }
    return granted
  }
  return {
    relate: (fromId, toId, kind) =>
      guard(async () => {
        await mine(fromId, toId)
        return api.relate(fromId, toId, kind)
      }),
    unrelate: (fromId, toId, kind) =>
      guard(async () => {
        await mine(fromId, toId)
        return api.unrelate(fromId, toId, kind)
      }),
    relations: (id) =>
      guard(async () => {
        const granted = await mine(id)
        const edges = await api.relations(id)
        const inScope = await Promise.all(
          edges.map(async (edge) => {
            const other = await api.get(edge.from === id ? edge.to : edge.from)
            return other !== undefined && granted.has(other.namespace)
          }),
        )
        return edges.filter((_, i) => inScope[i])
      }),
    feedback: (id, verdict) =>
      guard(async () => {
        await mine(id)
        return api.feedback(id, verdict)
      }),
  } satisfies Partial<Offered>
}

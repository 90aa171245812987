import * as Comlink from 'comlink'
import { AccessDeniedError } from '../core/errors.ts'
import type { Memory, RecallHit, RememberOptions } from '../core/types.ts'
import type { MemoryMethod, RemoteMemoryApi } from '../host/protocol.ts'
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

/** A method of the host's memory by its path, the sync extension's included. */
type RemoteMethod = MemoryMethod | 'sync.start' | 'sync.control'

/**
 * The methods another origin is not offered, by path: `inspect` (the recall log and stats
 * describe every namespace, `verify` is the owner's housekeeping) and `review`, an import
 * could claim any namespace, sync (its `start` and its handle's `control`) replicates all of
 * them to a server of the caller's choosing, and locking or unlocking encryption at rest
 * (`atRest`) is the owner's to do.
 */
export const NOT_OFFERED_TO_ORIGINS = [
  'inspect.recallLog',
  'inspect.clearRecallLog',
  'inspect.stats',
  'inspect.verify',
  'review',
  'transfer.import',
  'sync.start',
  'sync.control',
  'atRest.lock',
  'atRest.unlock',
] as const satisfies readonly RemoteMethod[]

type NotOffered = (typeof NOT_OFFERED_TO_ORIGINS)[number]
/** The memory without the methods refused: every one left must be scoped below, or this does not compile. */
type Offered = Omit<RemoteMemoryApi, 'review' | 'inspect' | 'atRest' | 'sync' | 'transfer'> & {
  transfer: Pick<RemoteMemoryApi['transfer'], 'export'>
}

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
 * await scoped.inspect.stats() // => throws AccessDeniedError (as data)
 */
export function scopeToOrigin(api: RemoteMemoryApi, access: OriginAccess): RemoteMemoryApi {
  const scope: Scope = {
    api,
    origin: access.origin,
    allowed: async () => new Namespaces(access.origin, await access.namespaces()),
  }
  const offered: Offered = {
    ...memoryMethods(scope),
    ...curationMethods(scope),
    pages: pageMethods(scope),
    close: () => api.close(),
    transfer: {
      export: (options) =>
        guard(async () => api.transfer.export((await scope.allowed()).pin(options, 'options'))),
    },
  }
  const refuse = (method: NotOffered) => (): Promise<never> =>
    guard(async () => {
      await scope.allowed()
      throw new AccessDeniedError(access.origin, `${method}() is not offered to other origins`)
    })
  return {
    ...offered,
    review: refuse('review'),
    inspect: {
      recallLog: refuse('inspect.recallLog'),
      clearRecallLog: refuse('inspect.clearRecallLog'),
      stats: refuse('inspect.stats'),
      verify: refuse('inspect.verify'),
    },
    transfer: { ...offered.transfer, import: refuse('transfer.import') },
    atRest: { lock: refuse('atRest.lock'), unlock: refuse('atRest.unlock') },
    sync: { start: refuse('sync.start'), control: refuse('sync.control') },
  }
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
    timeline: (options) =>
      guard(async () => api.timeline((await allowed()).pin(options, 'options'))),
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
  } satisfies Partial<Offered>
}

/**
 * Pages: stored in the origin's namespace, and a page of another namespace reads as not found
 * (`pages.get` answers undefined, `pages.forget` and an overwrite by `pages.remember` throw
 * `MemoryNotFoundError`), so an origin cannot learn that it exists. For the same reason its
 * `pages.remember` may name by `pageId` only a page of its own: a new id is not found either.
 */
function pageMethods({ api, allowed, origin }: Scope): Offered['pages'] {
  const ownPage = async (pageId: unknown, mustExist: boolean): Promise<Namespaces> => {
    const granted = await allowed()
    const page = typeof pageId === 'string' ? await api.pages.get(pageId) : undefined
    if (page ? !granted.has(page.namespace) : mustExist) throw notFound(pageId)
    return granted
  }
  return {
    remember: (input) =>
      guard(async () => {
        if (!isObject(input)) throw badOption('input', 'a page object', input)
        // A new id would name a new page, but then an id in use elsewhere would answer otherwise.
        const granted = await ownPage(input.pageId, input.pageId !== undefined)
        return api.pages.remember(hostProvenance(origin, granted.pin(input, 'input'), 'input'))
      }),
    get: (pageId) =>
      guard(async () => {
        const granted = await allowed()
        const page = await api.pages.get(pageId)
        return page && granted.has(page.namespace) ? page : undefined
      }),
    forget: (pageId) =>
      guard(async () => {
        await ownPage(pageId, true)
        return api.pages.forget(pageId)
      }),
    list: (options) => guard(async () => api.pages.list((await allowed()).pin(options, 'options'))),
  }
}

/**
 * Relations and feedback: every id named must be a memory of the origin's namespaces, else
 * `AccessDeniedError` (the same answer for one that does not exist, so it learns nothing);
 * `relations.of` lists only the edges whose other end is one of its memories too.
 */
function curationMethods(scope: Scope): Pick<Offered, 'relations' | 'feedback'> {
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
  const relations: Offered['relations'] = {
    add: (fromId, toId, kind) =>
      guard(async () => {
        await mine(fromId, toId)
        return api.relations.add(fromId, toId, kind)
      }),
    remove: (fromId, toId, kind) =>
      guard(async () => {
        await mine(fromId, toId)
        return api.relations.remove(fromId, toId, kind)
      }),
    of: (id) =>
      guard(async () => {
        const granted = await mine(id)
        const edges = await api.relations.of(id)
        const inScope = await Promise.all(
          edges.map(async (edge) => {
            const other = await api.get(edge.from === id ? edge.to : edge.from)
            return other !== undefined && granted.has(other.namespace)
          }),
        )
        return edges.filter((_, i) => inScope[i])
      }),
  }
  return {
    relations,
    feedback: (id, verdict) =>
      guard(async () => {
        await mine(id)
        return api.feedback(id, verdict)
      }),
  }
}

import * as Comlink from 'comlink'
import { AccessDeniedError, errorToData, StorageError } from '../core/errors.ts'
import { createMemoryHost } from '../host/memory-host.ts'
import type { EngineEnvironment } from '../host/open-engine.ts'
import type { WorkerOpenOptions } from '../host/protocol.ts'
import { syncChannelName } from '../storage/names.ts'
import {
  type FirstPartyStorage,
  firstPartyStorage,
  whyNoFirstPartyStorage,
} from './first-party-storage.ts'
import { createOriginHost } from './origin-host.ts'
import {
  CONNECT_PROTOCOL,
  type ConnectReply,
  type ConnectRequest,
  type HostClosing,
  type HostReady,
  isConnectMessage,
  originNamespace,
  type PathReport,
} from './protocol.ts'
import { SiteGrants } from './site-grants.ts'
import { type HostPlacement, missedPaths, reachedPaths } from './storage-paths.ts'

/** What the user is asked: `origin` wants to use `memory`, in `namespace`. */
export interface ConsentRequest {
  origin: string
  memory: string
  namespace: string
}

/** How a connection ended up, for the host page to show. */
export type ConnectionStatus =
  | { origin: string; state: 'asking' }
  | { origin: string; state: 'connected'; namespaces: string[]; paths: PathReport[] }
  | { origin: string; state: 'refused'; reason: string }

export interface ServeOriginsOptions {
  /** The memory every origin reaches: the host's own, never one the embedder names. */
  memory: WorkerOpenOptions
  /**
   * Asks the user whether `request.origin` may use the memory; called only when no decision is
   * stored. Resolve `true` for Allow. A real product must let only the user's click decide
   * (the Allow handler should call `requestFirstPartyStorage()` first thing, while its
   * activation lasts). A Deny is remembered, so the site cannot ask again and again.
   */
  consent(request: ConsentRequest): Promise<boolean>
  /** Hears each connection's progress. */
  onStatus?: (status: ConnectionStatus) => void
  /** Where the memory and the allow-list live. @default firstPartyStorage() */
  storage?: () => Promise<FirstPartyStorage | undefined>
}

/**
 * Makes this page (the host page) answer another origin's `embedMemory()`, from one peer: the
 * page's `parent` when it is an iframe, its `opener` when it is a top-level window that page
 * opened (`embedMemory({ via: 'window' })`, where the storage is first-party by construction).
 * Announces itself to the peer, and for each `connect` message from it checks the allow-list
 * (asking the user when the origin is unknown), then either serves the memory on the
 * transferred port, scoped to the origin, or refuses with `AccessDeniedError` (the user said
 * no) or `StorageError` (the browser gave this page no first-party storage). Returns a function
 * that stops listening; a page with neither peer does nothing.
 *
 * @example
 * // connect.html's script, on https://memory.example
 * serveOrigins({ memory: { name: 'engram-app', embedder: { kind: 'none' } }, consent: askTheUser })
 * // https://example.test: await embedMemory({ host: 'https://memory.example/connect.html' })
 */
export function serveOrigins(options: ServeOriginsOptions): () => void {
  const storage = options.storage ?? firstPartyStorage
  const placement: HostPlacement = window.parent !== window ? 'frame' : 'window'
  const peer: Window | null = placement === 'frame' ? window.parent : window.opener
  if (!peer) return () => {}
  const onMessage = (event: MessageEvent): void => {
    const port = event.ports[0]
    // Only the one peer: a third origin's window that found this one cannot hand it a port.
    if (event.source !== peer) return
    if (!port || !isConnectMessage<ConnectRequest>(event.data, 'connect')) return
    void connect(event.origin, port, options, storage, placement)
  }
  addEventListener('message', onMessage)
  const ready: HostReady = { protocol: CONNECT_PROTOCOL, type: 'ready' }
  // Says only that the page listens; the port goes to the host's origin alone.
  peer.postMessage(ready, '*')
  return () => removeEventListener('message', onMessage)
}

/** One connection: decide, then serve or refuse. */
async function connect(
  origin: string,
  port: MessagePort,
  options: ServeOriginsOptions,
  storage: () => Promise<FirstPartyStorage | undefined>,
  placement: HostPlacement,
): Promise<void> {
  const memory = options.memory.name
  const reply = (message: ConnectReply): void => port.postMessage(message)
  const refuse = (error: Error, paths?: PathReport[]): void => {
    options.onStatus?.({ origin, state: 'refused', reason: error.message })
    const data = errorToData(error)
    reply({ protocol: CONNECT_PROTOCOL, type: 'refused', error: data, ...(paths ? { paths } : {}) })
    port.close()
  }
  try {
    const decided = await decide(origin, options, storage, placement, () => {
      options.onStatus?.({ origin, state: 'asking' })
      reply({ protocol: CONNECT_PROTOCOL, type: 'prompt' })
    })
    if ('error' in decided) return refuse(decided.error, decided.paths)
    const { grants, place, namespaces, paths } = decided
    await grants.touch(memory, origin)
    const access = {
      origin,
      async namespaces(): Promise<string[]> {
        const grant = await grants.get(memory, origin)
        if (grant?.state !== 'allowed') {
          throw new AccessDeniedError(origin, `${origin} no longer has access to this memory`)
        }
        return grant.namespaces
      },
    }
    const host = createOriginHost(
      createMemoryHost(engineEnvironment(place, memory)),
      options.memory,
      access,
    )
    reply({
      protocol: CONNECT_PROTOCOL,
      type: 'accepted',
      memory,
      namespace: namespaces[0] ?? originNamespace(origin),
      namespaces,
      paths,
    })
    Comlink.expose(host, port)
    const closing: HostClosing = { protocol: CONNECT_PROTOCOL, type: 'closing' }
    addEventListener('pagehide', () => port.postMessage(closing), { once: true })
    options.onStatus?.({ origin, state: 'connected', namespaces, paths })
  } catch (error) {
    refuse(error instanceof Error ? error : new Error(`the host page failed: ${String(error)}`))
  }
}

/** What {@link decide} found: the storage and the grant, or why the origin gets neither. */
type Decision =
  | { grants: SiteGrants; place: FirstPartyStorage; namespaces: string[]; paths: PathReport[] }
  | { error: Error; paths?: PathReport[] }

/** The allow-list's answer, asking the user when it has none. */
async function decide(
  origin: string,
  options: ServeOriginsOptions,
  storage: () => Promise<FirstPartyStorage | undefined>,
  placement: HostPlacement,
  asking: () => void,
): Promise<Decision> {
  const memory = options.memory.name
  if (origin === 'null') {
    return {
      error: new AccessDeniedError(origin, 'a page with an opaque origin cannot be allowed'),
    }
  }
  let place = await storage()
  let grants = place && grantsIn(place)
  const known = await grants?.get(memory, origin)
  if (known?.state === 'denied') {
    return { error: new AccessDeniedError(origin, `${origin} was denied access to this memory`) }
  }
  if (grants && place && known?.state === 'allowed') {
    return {
      grants,
      place,
      namespaces: known.namespaces,
      paths: reachedPaths(placement, place, false),
    }
  }
  const before = place
  asking()
  const allowed = await options.consent({ origin, memory, namespace: originNamespace(origin) })
  place ??= await storage()
  grants ??= place && grantsIn(place)
  if (!allowed) {
    await grants?.deny(memory, origin)
    return {
      error: new AccessDeniedError(origin, `the user denied ${origin} access to this memory`),
    }
  }
  if (!grants || !place) {
    const refusal = whyNoFirstPartyStorage()
    return {
      error: new StorageError(
        `the browser did not grant this page access to its storage (${refusal}); ` +
          "open the memory in a window instead: embedMemory({ host, via: 'window' }) from a click",
      ),
      paths: missedPaths(refusal),
    }
  }
  const grant = await grants.allow(memory, origin)
  return {
    grants,
    place,
    namespaces: grant.namespaces,
    paths: reachedPaths(placement, place, before === undefined),
  }
}

const opened = new WeakMap<FirstPartyStorage, SiteGrants>()

/** One allow-list per storage place, shared by every connection of the page. */
function grantsIn(place: FirstPartyStorage): SiteGrants {
  let grants = opened.get(place)
  if (!grants) {
    grants = SiteGrants.open({
      indexedDB: place.indexedDB,
      IDBKeyRange: place.IDBKeyRange,
      openChannel: place.openChannel,
    })
    opened.set(place, grants)
  }
  return grants
}

/** A storage-access handle's IndexedDB, locks and channel; the page's own need no overrides. */
function engineEnvironment(place: FirstPartyStorage, memory: string): EngineEnvironment {
  if (place.via !== 'storage-access-handle') return {}
  return {
    indexedDB: place.indexedDB,
    IDBKeyRange: place.IDBKeyRange,
    ...(place.locks ? { locks: place.locks } : {}),
    ...(place.openChannel ? { channel: place.openChannel(syncChannelName(memory)) } : {}),
  }
}

/**
 * The handshake between a page of another origin (the embedder, `client/embed-memory.ts`) and
 * the memory's host page in its iframe (`serve-origins.ts`). It carries no memory data: once the
 * host accepts, the `MessagePort` handed over in `connect` speaks the usual Comlink protocol of
 * `host/protocol.ts`, scoped to the embedder's origin.
 *
 * The host page is either the embedder's iframe (its `parent`) or a window the embedder opened
 * (its `opener`, path `'window'`); "peer" below is that one window.
 *
 * 1. host → peer, `postMessage(ready, '*')`: the page is listening (nothing secret).
 * 2. peer → host, `postMessage(connect, hostOrigin, [port])`: only the host's origin gets the port.
 * 3. host → peer, on the port: `prompt` while the user is asked, then `accepted` or `refused`,
 *    each naming the paths to the memory's storage that were tried and why (`paths`).
 */
import type { ErrorData } from '../core/errors.ts'

/** Names this protocol and its version; a message without it is not ours and is ignored. */
export const CONNECT_PROTOCOL = 'engram-connect/1'

/**
 * How the host page reaches the memory's own (first-party) storage, in the order tried:
 * - `'frame'`: the iframe's own storage is the host origin's (the browser does not partition it,
 *   or access was granted before);
 * - `'storage-access'`: the iframe asked with the Storage Access API and the browser granted it;
 * - `'window'`: a top-level window of the host origin, opened by the embedder on a click.
 */
export type ConnectPath = 'frame' | 'storage-access' | 'window'

/** One path the host page tried (or could not try), and why it was or was not used. */
export interface PathReport {
  via: ConnectPath
  /** Whether this path answers the connection (at most one report of a connection has it). */
  used: boolean
  /**
   * Why, in words for a log or a developer:
   * @example
   * // => "requestStorageAccess was refused (NotAllowedError: requestStorageAccess not allowed)"
   */
  reason: string
}

/** The host page is loaded and listens for `connect`. */
export interface HostReady {
  protocol: typeof CONNECT_PROTOCOL
  type: 'ready'
}

/** The embedder asks for the memory; the port travels with it in the transfer list. */
export interface ConnectRequest {
  protocol: typeof CONNECT_PROTOCOL
  type: 'connect'
}

/** The host is asking the user: the embedder should show the iframe now. */
export interface ConnectPrompt {
  protocol: typeof CONNECT_PROTOCOL
  type: 'prompt'
}

/** The user allowed the origin; Comlink calls may start on the port. */
export interface ConnectAccepted {
  protocol: typeof CONNECT_PROTOCOL
  type: 'accepted'
  /** The memory the host opened for this origin (its database name). */
  memory: string
  /** Where the origin's writes go unless it names another granted namespace. */
  namespace: string
  /** Every namespace the origin may read and write. */
  namespaces: string[]
  /** The paths tried, the one that answers last (`used: true`). */
  paths: PathReport[]
}

/**
 * No memory for this origin; `error` says why, as data: an `AccessDeniedError`, or what failed
 * in the host page (a `StorageError`, say). The port is closed.
 */
export interface ConnectRefused {
  protocol: typeof CONNECT_PROTOCOL
  type: 'refused'
  error: ErrorData
  /**
   * The paths tried and why each failed, when the storage was the reason (the user said nothing
   * yet, or said Allow); a last `'window'` report with `used: false` says the embedder may still
   * open the host in a window from a click.
   */
  paths?: PathReport[]
}

/**
 * The host page is going away (its window closed, its frame navigated): sent on the port after
 * `accepted`, beside Comlink's messages (which all carry an `id`; this has none), because the
 * browser tells the other end of a port nothing when its page goes (Chromium 156 has no
 * MessagePort `close` event).
 */
export interface HostClosing {
  protocol: typeof CONNECT_PROTOCOL
  type: 'closing'
}

export type ConnectReply = ConnectPrompt | ConnectAccepted | ConnectRefused

/** Whether `data` is a message of this protocol of the given `type`. */
export function isConnectMessage<T extends HostReady | ConnectRequest | ConnectReply | HostClosing>(
  data: unknown,
  type: T['type'],
): data is T {
  if (!data || typeof data !== 'object') return false
  const message = data as Partial<HostReady>
  return message.protocol === CONNECT_PROTOCOL && message.type === type
}

/** The namespace an origin's memories live in by default. */
export function originNamespace(origin: string): string {
  return `origin:${origin}`
}

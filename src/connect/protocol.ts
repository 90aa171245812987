/**
 * The handshake between a page of another origin (the embedder, `client/embed-memory.ts`) and
 * the memory's host page in its iframe (`serve-origins.ts`). It carries no memory data: once the
 * host accepts, the `MessagePort` handed over in `connect` speaks the usual Comlink protocol of
 * `host/protocol.ts`, scoped to the embedder's origin.
 *
 * 1. host → parent, `window.postMessage(ready, '*')`: the page is listening (nothing secret).
 * 2. parent → host, `postMessage(connect, hostOrigin, [port])`: only the host's origin gets the port.
 * 3. host → parent, on the port: `prompt` while the user is asked, then `accepted` or `refused`.
 */
import type { ErrorData } from '../core/errors.ts'

/** Names this protocol and its version; a message without it is not ours and is ignored. */
export const CONNECT_PROTOCOL = 'engram-connect/1'

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
}

/**
 * No memory for this origin; `error` says why, as data: an `AccessDeniedError`, or what failed
 * in the host page (a `StorageError`, say). The port is closed.
 */
export interface ConnectRefused {
  protocol: typeof CONNECT_PROTOCOL
  type: 'refused'
  error: ErrorData
}

export type ConnectReply = ConnectPrompt | ConnectAccepted | ConnectRefused

/** Whether `data` is a message of this protocol of the given `type`. */
export function isConnectMessage<T extends HostReady | ConnectRequest | ConnectReply>(
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

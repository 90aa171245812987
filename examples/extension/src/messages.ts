/**
 * How the extension's pages reach the one memory: each asks for it with a `MessagePort`, which
 * the service worker hands to the offscreen document, which hands it to the memory worker.
 * After that the port speaks Comlink (engram's `connectMemory`) directly to the worker.
 */

/** Posted with a `MessagePort` in the transfer list: side panel → service worker → offscreen → worker. */
export interface ConnectMessage {
  type: 'engram-extension:connect'
}

export const CONNECT: ConnectMessage = { type: 'engram-extension:connect' }

export function isConnect(data: unknown): data is ConnectMessage {
  return (data as Partial<ConnectMessage> | null)?.type === CONNECT.type
}

/** The memory's database name inside the extension's origin. */
export const MEMORY_NAME = 'engram-extension'

import {
  CONNECT_PROTOCOL,
  type ConnectAccepted,
  type ConnectRefused,
  type ConnectRequest,
  type HostReady,
  isConnectMessage,
} from '../connect/protocol.ts'
import { InvalidInputError, reviveError, WorkerTerminatedError } from '../core/errors.ts'
import type { MemoryEventListener } from '../core/types.ts'
import { connectMemory } from './connect-memory.ts'
import type { MemoryClient } from './memory-client.ts'

export interface EmbedMemoryOptions {
  /** The memory's host page, e.g. `'https://memory.example/connect.html'`. */
  host: string | URL
  /**
   * First event listener; more can be added with `on()`. An origin hears its own part: `change`
   * only when its namespaces hold something new, numbered by its own count from 1; model events
   * as they come; nothing of the rest of the memory, and nothing once the user revokes it.
   */
  onEvent?: MemoryEventListener
  /** Where the host page's iframe goes. @default document.body */
  container?: HTMLElement
  /**
   * Shows the iframe while the host page asks the user, hides it once the user has answered.
   * @default a centred 420×240 frame over the page while asking, `display: none` otherwise
   */
  show?: (frame: HTMLIFrameElement, visible: boolean) => void
  /**
   * How long the host page may take to load and say it is ready, in milliseconds; the user's
   * decision itself is never timed. 1..600000. @default 15000
   */
  loadTimeoutMs?: number
}

/** A memory reached through another origin's host page. */
export interface EmbeddedMemory extends MemoryClient {
  /** Where this origin's writes go by default: `origin:<this origin>`. */
  readonly namespace: string
  /** Every namespace the user granted this origin. */
  readonly namespaces: readonly string[]
  /** The host page's iframe; removed by `close()`. */
  readonly frame: HTMLIFrameElement
}

/**
 * Connects this page to a memory that lives on another origin: loads its host page in an
 * iframe, hands it a `MessagePort` (posted to the host's origin only, and answered only when
 * it comes from that frame), and waits while the host asks the user. Resolves once the user
 * allowed this origin; rejects with `AccessDeniedError` when they did not. Memories this page
 * writes live in its own namespace, `origin:<this origin>`, unless the user grants more.
 *
 * @example
 * const memory = await embedMemory({ host: 'https://memory.example/connect.html' })
 * await memory.remember('The reader prefers dark mode')
 * memory.namespace // => 'origin:https://example.test'
 */
export async function embedMemory(options: EmbedMemoryOptions): Promise<EmbeddedMemory> {
  const host = new URL(options.host, location.href)
  const loadTimeoutMs = options.loadTimeoutMs ?? 15_000
  if (!Number.isInteger(loadTimeoutMs) || loadTimeoutMs < 1 || loadTimeoutMs > 600_000) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'loadTimeoutMs',
      `expected an integer from 1 to 600000, got ${String(loadTimeoutMs)}`,
    )
  }
  const show = options.show ?? defaultShow
  const frame = document.createElement('iframe')
  frame.src = host.href
  frame.title = 'Engram memory'
  frame.allow = 'storage-access'
  show(frame, false)
  ;(options.container ?? document.body).append(frame)
  try {
    await hostReady(frame, host.origin, loadTimeoutMs)
    const { port, accepted } = await handshake(frame, host.origin, show)
    const client = await connectMemory(
      port,
      { name: accepted.memory, ...(options.onEvent ? { onEvent: options.onEvent } : {}) },
      { terminate: () => frame.remove() },
    )
    return Object.assign(client, {
      namespace: accepted.namespace,
      namespaces: Object.freeze([...accepted.namespaces]),
      frame,
    })
  } catch (error) {
    frame.remove()
    throw error
  }
}

/** Resolves at the frame's `ready`, from the host's origin and that frame only. */
function hostReady(frame: HTMLIFrameElement, origin: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (event: MessageEvent): void => {
      if (event.source !== frame.contentWindow || event.origin !== origin) return
      if (!isConnectMessage<HostReady>(event.data, 'ready')) return
      done()
      resolve()
    }
    const timer = setTimeout(() => {
      done()
      reject(new WorkerTerminatedError(`the memory host page ${frame.src} did not answer`))
    }, timeoutMs)
    const done = (): void => {
      clearTimeout(timer)
      removeEventListener('message', onMessage)
    }
    addEventListener('message', onMessage)
  })
}

/** Sends `connect` with a port and waits for the host's (and the user's) answer on it. */
function handshake(
  frame: HTMLIFrameElement,
  origin: string,
  show: (frame: HTMLIFrameElement, visible: boolean) => void,
): Promise<{ port: MessagePort; accepted: ConnectAccepted }> {
  const { port1: port, port2 } = new MessageChannel()
  return new Promise((resolve, reject) => {
    const onMessage = (event: MessageEvent): void => {
      if (isConnectMessage(event.data, 'prompt')) {
        show(frame, true)
      } else if (isConnectMessage<ConnectAccepted>(event.data, 'accepted')) {
        done()
        resolve({ port, accepted: event.data })
      } else if (isConnectMessage<ConnectRefused>(event.data, 'refused')) {
        done()
        port.close()
        reject(reviveError(event.data.error))
      }
    }
    const onClose = (): void => {
      done()
      reject(new WorkerTerminatedError('the memory host page closed the channel'))
    }
    const done = (): void => {
      show(frame, false)
      port.removeEventListener('message', onMessage)
      port.removeEventListener('close', onClose)
    }
    port.addEventListener('message', onMessage)
    port.addEventListener('close', onClose)
    port.start()
    const request: ConnectRequest = { protocol: CONNECT_PROTOCOL, type: 'connect' }
    // The target origin keeps the port from a frame that navigated elsewhere meanwhile.
    frame.contentWindow?.postMessage(request, origin, [port2])
  })
}

function defaultShow(frame: HTMLIFrameElement, visible: boolean): void {
  frame.style.cssText = visible
    ? 'display:block;position:fixed;z-index:2147483647;top:50%;left:50%;width:420px;height:240px;' +
      'transform:translate(-50%,-50%);border:1px solid #c8ccd8;border-radius:12px;background:#fff;' +
      'box-shadow:0 12px 40px rgba(0,0,0,.25)'
    : 'display:none'
}

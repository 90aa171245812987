import {
  CONNECT_PROTOCOL,
  type ConnectAccepted,
  type ConnectPath,
  type ConnectRefused,
  type ConnectRequest,
  type HostClosing,
  type HostReady,
  isConnectMessage,
  type PathReport,
} from '../connect/protocol.ts'
import { integerIn, oneOf } from '../core/check-options.ts'
import { AccessDeniedError, reviveError, WorkerTerminatedError } from '../core/errors.ts'
import type { MemoryEventListener } from '../core/types.ts'
import { connectMemory } from './connect-memory.ts'
import type { MemoryClient } from './memory-client.ts'

const EMBED_VIAS = ['frame', 'window'] as const satisfies readonly EmbedMemoryOptions['via'][]

export interface EmbedMemoryOptions {
  /** The memory's host page, e.g. `'https://memory.example/connect.html'`. */
  host: string | URL
  /**
   * Where the host page runs:
   * - `'frame'`: a hidden iframe, shown while the user is asked. It reaches the memory when the
   *   browser lets a third-party frame have its first-party storage, itself or through the
   *   Storage Access API on the user's Allow (paths `'frame'` and `'storage-access'`); where it
   *   cannot, `embedMemory` rejects with `StorageError` and `onPath` says why.
   * - `'window'`: a small window of the host origin (path `'window'`), where the storage is
   *   first-party in every browser. The browser opens it only during a user gesture, so call
   *   `embedMemory` in a click handler, before any `await`. The window asks the user, then
   *   stays open as the site's companion: the memory runs in it, and closing it disconnects.
   * @default 'frame'
   * @example
   * button.onclick = () => embedMemory({ host, via: 'window' }).then(use)
   * // => a window "Engram — https://example.test" asking; after Allow, memory.path === 'window'
   */
  via?: 'frame' | 'window'
  /**
   * Hears each path to the memory's storage that was tried (or not) and why, in the fallback
   * order `frame`, `storage-access`, `window`; the last one heard with `used: true` answers.
   * Told before `embedMemory` settles, also when it rejects for want of storage.
   * @example
   * onPath: (p) => console.log(p.via, p.used, p.reason)
   * // => storage-access false requestStorageAccess was refused (NotAllowedError: …)
   */
  onPath?: (report: PathReport) => void
  /**
   * First event listener; more can be added with `on()`. An origin hears its own part: `change`
   * only when its namespaces hold something new, numbered by its own count from 1; model events
   * as they come; nothing of the rest of the memory, and nothing once the user revokes it.
   */
  onEvent?: MemoryEventListener
  /** Where the host page's iframe goes (`via: 'frame'`). @default document.body */
  container?: HTMLElement
  /**
   * Shows the iframe while the host page asks the user, hides it once the user has answered
   * (`via: 'frame'`).
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
  /** How the host page reaches the memory's storage: `'frame'`, `'storage-access'` or `'window'`. */
  readonly path: ConnectPath
  /** Every path tried and why, the one used last (as `onPath` heard them). */
  readonly paths: readonly PathReport[]
  /** The host page's iframe (`via: 'frame'`); removed by `close()`. */
  readonly frame: HTMLIFrameElement | undefined
  /** The host page's window (`via: 'window'`); closed by `close()`. */
  readonly window: Window | undefined
}

/** The host page's window or frame, as the handshake needs it. */
interface HostPeer {
  target(): Window | null
  show(visible: boolean): void
  remove(): void
  frame?: HTMLIFrameElement
  window?: Window
  /** Said of the paths not tried because of where the host page runs. */
  skipped: PathReport[]
}

/** Size of the host's window: room for the prompt, so it is wholly on screen and can arm. */
const WINDOW_FEATURES = 'popup,width=480,height=380'

/**
 * Connects this page to a memory that lives on another origin: loads its host page in an
 * iframe (or, with `via: 'window'`, a window), hands it a `MessagePort` (posted to the host's
 * origin only, and answered only when it comes from that frame or window), and waits while the
 * host asks the user. Resolves once the user allowed this origin; rejects with
 * `AccessDeniedError` when they did not, and with `StorageError` when the browser gives the
 * frame no first-party storage (then a window, from a click, still can). Memories this page
 * writes live in its own namespace, `origin:<this origin>`, unless the user grants more.
 *
 * @example
 * const memory = await embedMemory({ host: 'https://memory.example/connect.html' })
 * await memory.remember('The reader prefers dark mode')
 * memory.namespace // => 'origin:https://example.test'
 */
export async function embedMemory(options: EmbedMemoryOptions): Promise<EmbeddedMemory> {
  const host = new URL(options.host, location.href)
  const loadTimeoutMs = integerIn(options.loadTimeoutMs ?? 15_000, 'loadTimeoutMs', 1, 600_000)
  const via = oneOf(options.via ?? 'frame', EMBED_VIAS, 'via')
  // Before any await: the browser opens a window only while the click's activation lasts.
  const peer = via === 'window' ? openHostWindow(host) : embedHostFrame(host, options)
  try {
    await hostReady(peer, host, loadTimeoutMs)
    const { port, accepted } = await handshake(peer, host.origin, options.onPath)
    port.addEventListener('message', (event) => {
      // The host's window closed: the port's watchers treat it as the channel closing.
      if (isConnectMessage<HostClosing>(event.data, 'closing'))
        port.dispatchEvent(new Event('close'))
    })
    const client = await connectMemory(
      port,
      { name: accepted.memory, ...(options.onEvent ? { onEvent: options.onEvent } : {}) },
      { terminate: () => peer.remove() },
    )
    const paths = [...peer.skipped, ...accepted.paths]
    return Object.assign(client, {
      namespace: accepted.namespace,
      namespaces: Object.freeze([...accepted.namespaces]),
      path: paths.find((report) => report.used)?.via ?? via,
      paths: Object.freeze(paths),
      frame: peer.frame,
      window: peer.window,
    })
  } catch (error) {
    peer.remove()
    throw error
  }
}

function embedHostFrame(host: URL, options: EmbedMemoryOptions): HostPeer {
  const show = options.show ?? defaultShow
  const frame = document.createElement('iframe')
  frame.src = host.href
  frame.title = 'Engram memory'
  frame.allow = 'storage-access'
  show(frame, false)
  ;(options.container ?? document.body).append(frame)
  return {
    target: () => frame.contentWindow,
    show: (visible) => show(frame, visible),
    remove: () => frame.remove(),
    frame,
    skipped: [],
  }
}

function openHostWindow(host: URL): HostPeer {
  // '_blank', not a name: a named window could be targeted by any frame of this page's group.
  const opened = window.open(host.href, '_blank', WINDOW_FEATURES)
  if (!opened) {
    throw new AccessDeniedError(
      location.origin,
      "the browser blocked the memory's window: call embedMemory({ via: 'window' }) in a click handler, before any await",
    )
  }
  return {
    target: () => opened,
    show: (visible) => {
      if (visible) opened.focus()
    },
    remove: () => opened.close(),
    window: opened,
    skipped: [
      {
        via: 'frame',
        used: false,
        reason: "not tried: the app asked for a window (via: 'window')",
      },
    ],
  }
}

/** Resolves at the host page's `ready`, from the host's origin and that frame or window only. */
function hostReady(peer: HostPeer, host: URL, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (event: MessageEvent): void => {
      if (event.source !== peer.target() || event.origin !== host.origin) return
      if (!isConnectMessage<HostReady>(event.data, 'ready')) return
      done()
      resolve()
    }
    const timer = setTimeout(() => {
      done()
      reject(new WorkerTerminatedError(`the memory host page ${host.href} did not answer`))
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
  peer: HostPeer,
  origin: string,
  onPath: ((report: PathReport) => void) | undefined,
): Promise<{ port: MessagePort; accepted: ConnectAccepted }> {
  const { port1: port, port2 } = new MessageChannel()
  const tell = (paths: PathReport[] | undefined): void => {
    for (const report of [...peer.skipped, ...(paths ?? [])]) onPath?.(report)
  }
  return new Promise((resolve, reject) => {
    const onMessage = (event: MessageEvent): void => {
      if (isConnectMessage(event.data, 'prompt')) {
        peer.show(true)
      } else if (isConnectMessage<ConnectAccepted>(event.data, 'accepted')) {
        done()
        tell(event.data.paths)
        resolve({ port, accepted: event.data })
      } else if (isConnectMessage<ConnectRefused>(event.data, 'refused')) {
        done()
        port.close()
        tell(event.data.paths)
        reject(reviveError(event.data.error))
      }
    }
    const onClose = (): void => {
      done()
      reject(new WorkerTerminatedError('the memory host page closed the channel'))
    }
    const done = (): void => {
      peer.show(false)
      port.removeEventListener('message', onMessage)
      port.removeEventListener('close', onClose)
    }
    port.addEventListener('message', onMessage)
    port.addEventListener('close', onClose)
    port.start()
    const request: ConnectRequest = { protocol: CONNECT_PROTOCOL, type: 'connect' }
    // The target origin keeps the port from a frame or window that navigated elsewhere meanwhile.
    peer.target()?.postMessage(request, origin, [port2])
  })
}

function defaultShow(frame: HTMLIFrameElement, visible: boolean): void {
  frame.style.cssText = visible
    ? 'display:block;position:fixed;z-index:2147483647;top:50%;left:50%;width:420px;height:240px;' +
      'transform:translate(-50%,-50%);border:1px solid #c8ccd8;border-radius:12px;background:#fff;' +
      'box-shadow:0 12px 40px rgba(0,0,0,.25)'
    : 'display:none'
}

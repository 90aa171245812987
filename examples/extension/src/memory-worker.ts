/// <reference lib="webworker" />
/**
 * The memory worker, started by the offscreen document: one engine for the whole extension.
 * Every page that connects (the side panel, the service worker for "Remember selection") gets a
 * port of its own to it, so the model loads once and every context sees the same memory.
 */
import * as Comlink from 'comlink'
import { createMemoryHost, type EmbedderChoice, type MemoryEventListener } from 'engram'
import { loadConfig } from './config.ts'
import { isConnect, MEMORY_NAME } from './messages.ts'

type MemoryHost = ReturnType<typeof createMemoryHost>
type RemoteMemory = Awaited<ReturnType<MemoryHost['open']>>

const host = createMemoryHost()
const listeners = new Set<MemoryEventListener>()
let memory: Promise<RemoteMemory> | undefined

/** Opens the memory on the first connection; later ones share it. */
function sharedMemory(): Promise<RemoteMemory> {
  memory ??= loadConfig().then(async ({ embedder }) => {
    const choice = await shippedModel(embedder)
    return host.open({ name: MEMORY_NAME, ...(choice ? { embedder: choice } : {}) }, (event) => {
      for (const listener of listeners) listener(event)
    })
  })
  memory.catch(() => {
    memory = undefined
  })
  return memory
}

/**
 * A model shipped inside the extension is read as transformers.js' local model folder: its
 * remote loader (4.3.1) only asks http(s) URLs whether a file exists, and the Cache API stores
 * only http(s) requests, so a `chrome-extension:` `modelBase` would load without a tokenizer.
 */
async function shippedModel(
  embedder: EmbedderChoice | undefined,
): Promise<EmbedderChoice | undefined> {
  if (embedder?.kind !== 'transformers' || !embedder.modelBase?.startsWith('chrome-extension:')) {
    return embedder
  }
  const { env } = await import('@huggingface/transformers')
  env.allowLocalModels = true
  env.localModelPath = embedder.modelBase
  env.useBrowserCache = false
  const { modelBase: _shipped, ...local } = embedder
  // No chain: the model ships with the extension (the probe would look for it on the web and
  // give up), and USE-lite does not.
  return { ...local, allowRemote: false, fallback: false }
}

/**
 * What one port sees: a host whose `open()` ignores the page's options (the worker's config
 * decides) and returns the shared memory, whose `close()` ends only this connection: the
 * memory outlives the pages that come and go.
 */
function connectionHost(port: MessagePort): MemoryHost {
  let listener: MemoryEventListener | undefined
  const drop = (): void => {
    if (listener) listeners.delete(listener)
  }
  // Chromium fires `close` when the page at the other end goes away (a closed side panel).
  port.addEventListener('close', drop)
  return {
    async open(_asked, onEvent) {
      const shared = await sharedMemory()
      if (onEvent) {
        listener = onEvent
        listeners.add(onEvent)
      }
      return Comlink.proxy({ ...shared, close: async () => drop() })
    },
    async dispose() {
      drop()
    },
  }
}

self.addEventListener('message', (event: MessageEvent) => {
  const port = event.ports[0]
  if (isConnect(event.data) && port) Comlink.expose(connectionHost(port), port)
})

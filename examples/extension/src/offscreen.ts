/**
 * The offscreen document (reason `WORKERS`): it exists to keep the memory worker alive while
 * the service worker comes and goes. It only passes ports on: each `connect` the service worker
 * forwards goes to the worker, which serves the memory on it.
 */
import { isConnect } from './messages.ts'

const worker = new Worker(new URL('./memory-worker.ts', import.meta.url), {
  type: 'module',
  name: 'engram',
})

// Registered before anything is awaited, so no message from the service worker is missed.
navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
  const port = event.ports[0]
  if (isConnect(event.data) && port) worker.postMessage(event.data, [port])
})
navigator.serviceWorker.startMessages()

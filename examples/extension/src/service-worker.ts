/// <reference lib="webworker" />
/**
 * The extension's service worker: creates the offscreen document that hosts the memory worker,
 * hands each page's `MessagePort` to it, and owns the "Remember selection" context menu.
 * Chrome stops it when idle; nothing here must outlive it, so the memory lives offscreen.
 */
import { connectMemory, type MemoryClient, type RememberResult } from 'engram'
import { CONNECT, isConnect, MEMORY_NAME } from './messages.ts'

declare const self: ServiceWorkerGlobalScope

export const MENU_ID = 'engram-remember-selection'
const OFFSCREEN_URL = 'offscreen.html'

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create({ id: MENU_ID, title: 'Remember selection', contexts: ['selection'] })
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true })
})

chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID) void rememberSelection(info, tab).catch(() => {})
})

// A page (the side panel) asks for the memory: its port goes on to the offscreen document.
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const port = event.ports[0]
  if (isConnect(event.data) && port) event.waitUntil(handOver(port))
})

let creating: Promise<void> | undefined

/** Creates the offscreen document unless it exists; two callers at once share one creation. */
async function ensureOffscreen(): Promise<void> {
  const existing = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })
  if (existing.length > 0) return
  creating ??= chrome.offscreen
    .createDocument({
      url: OFFSCREEN_URL,
      reasons: ['WORKERS'],
      justification:
        'Runs the memory worker: IndexedDB, the search indexes and the embedding model.',
    })
    .finally(() => {
      creating = undefined
    })
  await creating
}

/** Gives `port` to the offscreen document, which passes it to the memory worker. */
async function handOver(port: MessagePort): Promise<void> {
  await ensureOffscreen()
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const offscreen = windows.find((client) => new URL(client.url).pathname === `/${OFFSCREEN_URL}`)
  if (!offscreen) throw new Error('the offscreen document did not start')
  offscreen.postMessage(CONNECT, [port])
}

let memory: Promise<MemoryClient> | undefined

/** The service worker's own connection, opened on first use and gone with the worker. */
function connection(): Promise<MemoryClient> {
  memory ??= (async () => {
    const { port1, port2 } = new MessageChannel()
    await handOver(port2)
    return connectMemory(port1, { name: MEMORY_NAME })
  })()
  memory.catch(() => {
    memory = undefined
  })
  return memory
}

/** Longest source the engine keeps (a long URL is cut, not refused). */
const SOURCE_LENGTH = 256

/**
 * What the "Remember selection" menu does: stores the selected text, credited to the page it
 * came from. Returns the write's result, or `undefined` when nothing was selected. Also
 * reachable as `engramExtension.rememberSelection` in this worker (the browser test calls it
 * with a real selection, since Playwright cannot click a context menu).
 */
export async function rememberSelection(
  info: chrome.contextMenus.OnClickData,
  tab?: chrome.tabs.Tab,
): Promise<RememberResult | undefined> {
  const text = info.selectionText?.trim()
  if (!text) return undefined
  const source = (info.pageUrl ?? tab?.url ?? 'context-menu').slice(0, SOURCE_LENGTH)
  try {
    const result = await (await connection()).remember(text, {
      source,
      tags: ['selection'],
      ...(tab?.title ? { meta: { title: tab.title } } : {}),
    })
    await badge(result.status === 'created' ? '+1' : '=', `Engram: ${result.status}`)
    return result
  } catch (error) {
    await badge('!', `Engram could not remember this: ${(error as Error).message}`)
    throw error
  }
}

async function badge(text: string, title: string): Promise<void> {
  await Promise.all([chrome.action.setBadgeText({ text }), chrome.action.setTitle({ title })])
}

Object.assign(self, { engramExtension: { rememberSelection, MENU_ID } })

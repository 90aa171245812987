/**
 * The side panel: recall with explanations, remember by hand, import another assistant's
 * history (`import-card.ts`), and the latest memories (a "Remember selection" from any tab
 * shows up here at once, through the memory's change events).
 */
import { connectMemory, type MemoryClient, type RecallHit } from 'engram'
// The PWA's words: the panel counts, and explains a keyword-only recall, as the app does.
import { whoAnswers } from '../../../src/app/model-reason.ts'
import { counted, DEGRADED_WORDS } from '../../../src/app/words.ts'
import { mountImportCard } from './import-card.ts'
import { CONNECT, MEMORY_NAME } from './messages.ts'

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T

/** Asks the service worker for a port to the memory worker, then speaks Comlink on it. */
async function openPanelMemory(onChange: () => void): Promise<MemoryClient> {
  const { port1, port2 } = new MessageChannel()
  const registration = await navigator.serviceWorker.ready
  registration.active?.postMessage(CONNECT, [port2])
  return connectMemory(port1, {
    name: MEMORY_NAME,
    onEvent: (event) => {
      // A model that finished loading (or failed) changes what the panel says answers.
      if (event.type === 'change' || event.type === 'model-ready' || event.type === 'model-failed')
        onChange()
    },
  })
}

function hitItem(hit: RecallHit): HTMLLIElement {
  const item = document.createElement('li')
  item.className = 'hit'
  const text = document.createElement('p')
  text.className = 'hit-text'
  text.textContent = hit.text
  const via = document.createElement('span')
  via.className = `via via-${hit.via}`
  via.textContent = hit.via
  const source = document.createElement('a')
  source.className = 'source small'
  source.textContent = ` ${hit.memory.source}`
  if (/^https?:/.test(hit.memory.source)) {
    source.href = hit.memory.source
    source.target = '_blank'
    source.rel = 'noreferrer'
  }
  const explanation = document.createElement('p')
  explanation.className = 'explanation'
  explanation.textContent = hit.explanation
  const head = document.createElement('div')
  head.className = 'hit-head'
  head.append(via, source)
  item.append(head, text, explanation)
  return item
}

async function main(): Promise<void> {
  let memory: MemoryClient | undefined
  const refreshRecent = async (): Promise<void> => {
    if (!memory) return
    const { items } = await memory.list({ limit: 5 })
    $('recent').replaceChildren(
      ...items.map((m) => {
        const li = document.createElement('li')
        li.className = 'memory'
        const text = document.createElement('p')
        text.className = 'memory-text'
        text.textContent = m.text
        li.title = m.source
        li.append(text)
        return li
      }),
    )
    $('status').textContent = counted(await memory.count(), 'memory', 'memories')
    await showModel()
  }
  /** Which model answers and why, from the memory's stats (as the PWA's Model card says it). */
  const showModel = async (): Promise<void> => {
    const stats = await memory?.inspect.stats().catch(() => undefined)
    if (stats) $('model-why').textContent = whoAnswers(stats.embedder)
  }
  memory = await openPanelMemory(() => void refreshRecent())
  await refreshRecent()
  mountImportCard(memory)

  $('recall-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    const query = ($('recall-form') as HTMLFormElement).query.value as string
    try {
      const result = await memory.recall(query)
      $('hits').replaceChildren(...result.hits.map(hitItem))
      const degraded = result.degraded ? ` · ${DEGRADED_WORDS[result.degraded]}` : ''
      $('recall-meta').textContent =
        `${counted(result.hits.length, 'hit')} in ${result.tookMs.toFixed(1)} ms${degraded}`
      // A keyword-only answer names its reason; the line above the cards says why in full.
      if (result.degraded) await showModel()
    } catch (error) {
      $('hits').replaceChildren()
      $('recall-meta').textContent = (error as Error).message
    }
  })

  $('remember-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    const form = $('remember-form') as HTMLFormElement
    try {
      const result = await memory.remember(form.text.value as string, { source: 'user' })
      $('remember-result').textContent =
        result.status === 'created' ? 'Remembered ✓' : `Already known (${result.match})`
      form.reset()
    } catch (error) {
      $('remember-result').textContent = (error as Error).message
    }
  })

  addEventListener('pagehide', () => void memory?.close())
  // A handle for the console (and the browser test).
  Object.assign(globalThis, { engram: { memory } })
  document.body.dataset.ready = 'true'
}

main().catch((error: unknown) => {
  $('status').textContent = `Engram could not open its memory: ${(error as Error).message}`
  document.body.dataset.ready = 'failed'
})

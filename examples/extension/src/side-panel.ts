/**
 * The side panel: recall with explanations, remember by hand, and the latest memories (a
 * "Remember selection" from any tab shows up here at once, through the memory's change events).
 */
import { connectMemory, type MemoryClient, type RecallHit } from 'engram'
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
      if (event.type === 'change') onChange()
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
  via.className = 'via'
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
  item.append(text, via, source, explanation)
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
        li.textContent = m.text
        li.title = m.source
        return li
      }),
    )
    $('status').textContent = `${await memory.count()} memories`
  }
  memory = await openPanelMemory(() => void refreshRecent())
  await refreshRecent()

  $('recall-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    const query = ($('recall-form') as HTMLFormElement).query.value as string
    try {
      const result = await memory.recall(query)
      $('hits').replaceChildren(...result.hits.map(hitItem))
      const degraded = result.degraded ? ` · keyword-only (${result.degraded})` : ''
      $('recall-meta').textContent =
        `${result.hits.length} hit${result.hits.length === 1 ? '' : 's'} in ${result.tookMs.toFixed(1)} ms${degraded}`
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

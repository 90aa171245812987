import type { RecallLogEntry } from '../index.ts'
import type { AppContext } from './context.ts'
import { busy, button, formatTime, h, keyedList, mountCard } from './dom.ts'
import { PLAINTEXT } from './plaintext.ts'
import { view } from './view.ts'

/** The "Recall log" card: what was asked, what came back and why, most recent first. */
export function mountRecallLogPanel(ctx: AppContext): { refresh(): Promise<void> } {
  const list = h('ul', { id: 'recall-log', class: 'log', [PLAINTEXT]: true })
  const error = h('p', { class: 'field-error', id: 'log-error', hidden: true })
  const refreshButton = button('Refresh', { id: 'log-refresh', class: 'ghost' })
  const clearButton = button('Clear', { id: 'log-clear', class: 'ghost danger' })
  mountCard(
    'log',
    { title: 'Recall log', aside: h('div', {}, refreshButton, ' ', clearButton) },
    error,
    list,
  )
  const log = view(
    () => ctx.memory.inspect.recallLog({ limit: 20 }),
    (entries) =>
      keyedList(list, entries, (entry) => `${entry.id ?? entry.at}:${entry.query}`, renderEntry, {
        empty: () => h('li', { class: 'empty', text: 'No recalls yet.' }),
      }),
    { error, failed: () => list.replaceChildren() },
  )

  refreshButton.addEventListener('click', () => void busy(refreshButton, log.refresh))
  clearButton.addEventListener('click', async () => {
    await busy(clearButton, () => ctx.memory.inspect.clearRecallLog())
    await log.refresh()
  })
  // The engine logs a recall just after answering it, so look until the entry is there.
  ctx.on('recalled', async (query) => {
    for (let attempt = 0; attempt < 10; attempt++) {
      await new Promise((done) => setTimeout(done, 100 + attempt * 100))
      await log.refresh()
      if (list.querySelector('.log-entry strong')?.textContent === query) return
    }
  })
  // Unlocking announces a change: the log the lock wiped comes back.
  ctx.on('changed', () => void log.refresh())
  void log.refresh()
  return log
}

function renderEntry(entry: RecallLogEntry): HTMLLIElement {
  const top = entry.hits[0]
  return h(
    'li',
    { class: 'log-entry' },
    h(
      'div',
      { class: 'log-head' },
      h('strong', { text: entry.query }),
      h('span', {
        class: 'muted small',
        text: `${entry.hits.length} hit${entry.hits.length === 1 ? '' : 's'} · ${entry.tookMs.toFixed(1)} ms${entry.degraded ? ` · ${entry.degraded}` : ''}`,
      }),
    ),
    h('span', { class: 'muted small', text: formatTime(entry.at) }),
    top && h('p', { class: 'explanation', text: `#1 ${top.via}: ${top.explanation}` }),
  )
}

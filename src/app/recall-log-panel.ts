import type { RecallLogEntry } from '../index.ts'
import type { AppContext } from './context.ts'
import { busy, byId, formatTime, h } from './dom.ts'
import { describeError } from './field-errors.ts'
import { RECALLED } from './recall-panel.ts'

/** The "Recall log" card: what was asked, what came back and why, most recent first. */
export function mountRecallLogPanel(ctx: AppContext): { refresh(): Promise<void> } {
  const list = byId<HTMLUListElement>('recall-log')
  const refreshButton = byId<HTMLButtonElement>('log-refresh')
  const clearButton = byId<HTMLButtonElement>('log-clear')

  async function refresh(): Promise<void> {
    try {
      const entries = await ctx.memory.inspect.recallLog({ limit: 20 })
      list.replaceChildren(
        ...(entries.length > 0
          ? entries.map(renderEntry)
          : [h('li', { class: 'empty', text: 'No recalls yet.' })]),
      )
    } catch (error) {
      list.replaceChildren(h('li', { class: 'field-error', text: describeError(error) }))
    }
  }

  refreshButton.addEventListener('click', () => void busy(refreshButton, refresh))
  clearButton.addEventListener('click', async () => {
    await busy(clearButton, () => ctx.memory.inspect.clearRecallLog())
    await refresh()
  })
  // The engine logs a recall just after answering it, so look until the entry is there.
  addEventListener(RECALLED, async (event) => {
    const query = (event as CustomEvent<string>).detail
    for (let attempt = 0; attempt < 10; attempt++) {
      await new Promise((done) => setTimeout(done, 100 + attempt * 100))
      await refresh()
      if (list.querySelector('.log-entry strong')?.textContent === query) return
    }
  })
  // Unlocking announces a change: the log the lock wiped comes back.
  ctx.onChanged(() => void refresh())
  void refresh()
  return { refresh }
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

import { contextFor, estimateTokens, memoryTools } from '../agent/index.ts'
import { InvalidInputError } from '../index.ts'
import type { AppContext } from './context.ts'
import { busy, byId, h } from './dom.ts'
import { clearErrors, showError } from './field-errors.ts'
import { PLAINTEXT } from './plaintext.ts'

/**
 * The "Agent view" card: for a typed message, the context block `contextFor` would put before
 * the model's turn, and the `memory_search` call an agent could make with its result — the tool
 * path made visible. The card fills `#agent-panel` itself; all text goes in by `textContent`.
 */
export function mountAgentPanel(ctx: AppContext): void {
  const root = byId('agent-panel')
  const message = h('input', {
    name: 'message',
    type: 'search',
    placeholder: 'Which units should the recipe use?',
    autocomplete: 'off',
    [PLAINTEXT]: true,
  })
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Show' })
  const meta = h('output', { id: 'agent-meta', class: 'result' })
  const form = h(
    'form',
    { id: 'agent-form', novalidate: true },
    h(
      'label',
      { class: 'field' },
      h('span', { text: 'Message to the assistant' }),
      message,
      h('p', { class: 'field-error', 'data-error-for': 'message', hidden: true }),
    ),
    h('p', { class: 'field-error', 'data-error-for': 'form', hidden: true }),
    h('div', { class: 'actions' }, submit, meta),
  )
  const contextBlock = code('agent-context')
  const call = code('agent-call')
  const result = code('agent-result')
  root.replaceChildren(
    h('h2', { id: 'agent-title', text: 'Agent view' }),
    h('p', {
      class: 'muted small',
      text: 'What an assistant sees for a message: the memory block seeded before its turn, and a memory_search tool call with the result it gets back. Memory text is fenced as data, never instructions.',
    }),
    form,
    h('h3', { text: 'Context block (contextFor)' }),
    contextBlock,
    h('h3', { text: 'Tool call' }),
    call,
    h('h3', { text: 'Tool result' }),
    result,
  )

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    clearErrors(form)
    if (message.value.trim() === '') {
      showError(
        form,
        new InvalidInputError('EMPTY_TEXT', 'message', 'expected a message, got nothing'),
      )
      return
    }
    const args = { query: message.value, k: null, types: null, tags: null }
    // Read-only: the card shows the read path and must never write on the user's behalf.
    const tools = memoryTools(ctx.memory, { readOnly: true })
    try {
      const [block, answer] = await busy(submit, () =>
        Promise.all([contextFor(ctx.memory, message.value), tools.handle('memory_search', args)]),
      )
      contextBlock.textContent = block === '' ? '(empty: nothing relevant to seed)' : block
      call.textContent = JSON.stringify({ name: 'memory_search', arguments: args }, null, 2)
      result.textContent = JSON.stringify(answer, null, 2)
      const seeded = block === '' ? 'no context' : `context ≈${estimateTokens(block)} tokens`
      meta.textContent = `${seeded} · tool ${answer.isError ? 'error' : 'ok'}`
    } catch (error) {
      for (const pre of [contextBlock, call, result]) pre.textContent = ''
      meta.textContent = ''
      showError(form, error)
    }
  })
}

function code(id: string): HTMLPreElement {
  return h('pre', { id, class: 'agent-code', [PLAINTEXT]: true })
}

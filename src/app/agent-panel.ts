import { contextFor, estimateTokens, memoryTools } from '../agent/index.ts'
import { InvalidInputError } from '../index.ts'
import type { AppContext } from './context.ts'
import { field, formOf, h, mountCard, textInput } from './dom.ts'
import { PLAINTEXT } from './plaintext.ts'
import { action } from './view.ts'

/**
 * The "Agent view" card: for a typed message, the context block `contextFor` would put before
 * the model's turn, and the `memory_search` call an agent could make with its result — the tool
 * path made visible. All text goes in by `textContent`.
 */
export function mountAgentPanel(ctx: AppContext): void {
  const message = textInput('message', 'Which units should the recipe use?', { type: 'search' })
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Show' })
  const meta = h('output', { id: 'agent-meta', class: 'result' })
  const form = formOf(
    'agent-form',
    [field('Message to the assistant', message)],
    h('div', { class: 'actions' }, submit, meta),
  )
  const contextBlock = code('agent-context')
  const call = code('agent-call')
  const result = code('agent-result')
  mountCard(
    'agent',
    'Agent view',
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

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (message.value.trim() === '') {
      const empty = new InvalidInputError(
        'EMPTY_TEXT',
        'message',
        'expected a message, got nothing',
      )
      void action(form, undefined, () => Promise.reject(empty))
      return
    }
    const args = { query: message.value, k: null, types: null, tags: null }
    // Read-only: the card shows the read path and must never write on the user's behalf.
    const tools = memoryTools(ctx.memory, { readOnly: true })
    const show = async (): Promise<void> => {
      const [block, answer] = await Promise.all([
        contextFor(ctx.memory, message.value),
        tools.handle('memory_search', args),
      ])
      contextBlock.textContent = block === '' ? '(empty: nothing relevant to seed)' : block
      call.textContent = JSON.stringify({ name: 'memory_search', arguments: args }, null, 2)
      result.textContent = JSON.stringify(answer, null, 2)
      const seeded = block === '' ? 'no context' : `context ≈${estimateTokens(block)} tokens`
      meta.textContent = `${seeded} · tool ${answer.isError ? 'error' : 'ok'}`
    }
    void action(form, submit, show, () => {
      for (const pre of [contextBlock, call, result]) pre.textContent = ''
      meta.textContent = ''
    })
  })
}

function code(id: string): HTMLPreElement {
  return h('pre', { id, class: 'agent-code', [PLAINTEXT]: true })
}

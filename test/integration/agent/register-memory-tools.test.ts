import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { WebMcpTool } from '../../../src/agent/adapters/webmcp.ts'
import {
  type ModelContextLike,
  registerMemoryTools,
} from '../../../src/agent/register-memory-tools.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { InvalidInputError } from '../../../src/core/errors.ts'
import { openTestMemory } from './memory.ts'

/**
 * A model context that keeps registrations the way the WebMCP draft does (by name, until the
 * registration's signal aborts) and can be told to refuse one name. The browser test runs the
 * published polyfill; this one reaches the paths a real runtime rarely takes.
 */
class RecordingContext implements ModelContextLike {
  readonly tools = new Map<string, WebMcpTool>()
  constructor(readonly refuse?: string) {}
  async registerTool(tool: WebMcpTool, options: { signal?: AbortSignal } = {}): Promise<void> {
    if (tool.name === this.refuse)
      throw new DOMException(`refused ${tool.name}`, 'InvalidStateError')
    this.tools.set(tool.name, tool)
    options.signal?.addEventListener('abort', () => this.tools.delete(tool.name), { once: true })
  }
}

let memory: MemoryClient
beforeEach(async () => {
  memory = await openTestMemory()
})
afterEach(async () => {
  await memory.close()
})

describe('registerMemoryTools', () => {
  it('reports unsupported where the page has no model context (as in Node)', async () => {
    expect(await registerMemoryTools(memory)).toEqual({ registered: false, reason: 'unsupported' })
  })

  it('registers every tool and removes them all when the signal aborts', async () => {
    const context = new RecordingContext()
    const controller = new AbortController()
    const result = await registerMemoryTools(memory, {
      modelContext: context,
      signal: controller.signal,
    })
    expect(result).toMatchObject({
      registered: true,
      tools: [
        'memory_search',
        'memory_store',
        'memory_update',
        'memory_forget',
        'memory_relate',
        'memory_feedback',
      ],
    })
    expect([...context.tools.keys()]).toHaveLength(6)
    controller.abort()
    expect(context.tools.size).toBe(0)
  })

  it('removes them on unregister() too, for callers without a signal', async () => {
    const context = new RecordingContext()
    const result = await registerMemoryTools(memory, { modelContext: context, readOnly: true })
    expect(context.tools.size).toBe(1)
    if (result.registered) result.unregister()
    expect(context.tools.size).toBe(0)
  })

  it('leaves none registered when the runtime refuses one', async () => {
    const context = new RecordingContext('memory_update')
    const result = await registerMemoryTools(memory, { modelContext: context })
    expect(result).toMatchObject({
      registered: false,
      reason: 'failed',
      error: { name: 'InvalidStateError' },
    })
    expect(context.tools.size).toBe(0)
  })

  it('registers nothing for a signal that is already aborted', async () => {
    const context = new RecordingContext()
    const result = await registerMemoryTools(memory, {
      modelContext: context,
      signal: AbortSignal.abort(),
    })
    expect(result).toEqual({ registered: false, reason: 'aborted' })
    expect(context.tools.size).toBe(0)
  })

  it('calls unregister() on handles an older runtime returned', async () => {
    const removed: string[] = []
    const legacy: ModelContextLike = {
      registerTool: (tool) => ({ unregister: () => removed.push(tool.name) }),
    }
    const controller = new AbortController()
    await registerMemoryTools(memory, {
      modelContext: legacy,
      signal: controller.signal,
      tools: ['memory_search', 'memory_store'],
    })
    controller.abort()
    expect(removed).toEqual(['memory_search', 'memory_store'])
  })

  it('executes registered tools against the memory', async () => {
    const context = new RecordingContext()
    await registerMemoryTools(memory, { modelContext: context, namespace: 'page' })
    const store = context.tools.get('memory_store')!
    const stored = await store.execute({
      text: 'Stored through WebMCP',
      type: null,
      tags: null,
      confidence: null,
    })
    expect(stored.isError).toBe(false)
    expect((await memory.list({ namespace: 'page' })).items.map((m) => m.text)).toEqual([
      'Stored through WebMCP',
    ])
  })

  it('throws for bad tool options, before touching the page', async () => {
    await expect(registerMemoryTools(memory, { source: 'user' })).rejects.toBeInstanceOf(
      InvalidInputError,
    )
  })
})

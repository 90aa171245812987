import { describe, expect, it } from 'vitest'
import { toWebMcpTools } from '../../../../src/agent/adapters/webmcp.ts'
import { offlineTools } from './tools.ts'

describe('toWebMcpTools', () => {
  it('marks search results as untrusted content and the writes as not read-only', () => {
    const tools = toWebMcpTools(offlineTools())
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]))
    expect(hints.memory_search).toMatchObject({ readOnlyHint: true, untrustedContentHint: true })
    expect(hints.memory_store).toMatchObject({ readOnlyHint: false, untrustedContentHint: false })
    expect(hints.memory_forget).toMatchObject({ destructiveHint: true })
  })

  it('executes through handle and resolves failures as MCP results rather than rejecting', async () => {
    const [search] = toWebMcpTools(offlineTools())
    await expect(search!.execute({ query: 42 })).resolves.toEqual({
      content: [
        { type: 'text', text: expect.stringContaining('query: expected a string, got 42') },
      ],
      isError: true,
    })
  })
})

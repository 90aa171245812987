import { CallToolResultSchema, ToolSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { toMcpCallResult, toMcpTools } from '../../../../src/agent/adapters/mcp.ts'
import { offlineTools } from './tools.ts'

describe('toMcpTools', () => {
  const tools = toMcpTools(offlineTools())

  it('gives entries that MCP’s Tool schema accepts without stripping anything', () => {
    expect(tools).toHaveLength(6)
    for (const tool of tools) expect(ToolSchema.parse(tool)).toEqual(tool)
  })

  it('hints read-only for search, destructive for forget and update, and never the open world', () => {
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]))
    expect(hints.memory_search).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    })
    expect(hints.memory_store).toMatchObject({ readOnlyHint: false, destructiveHint: false })
    expect(hints.memory_update).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
    expect(hints.memory_forget).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
    expect(hints.memory_relate).toMatchObject({ readOnlyHint: false, destructiveHint: false })
    expect(hints.memory_feedback).toMatchObject({ destructiveHint: true, idempotentHint: false })
    for (const tool of tools) expect(tool.annotations.openWorldHint).toBe(false)
  })

  it('carries a human title beside the name', () => {
    expect(tools.map((t) => t.title)).toEqual([
      'Search memory',
      'Remember a fact',
      'Correct a memory',
      'Forget a memory',
      'Relate two memories',
      'Rate a memory',
    ])
  })
})

describe('toMcpCallResult', () => {
  it('gives a CallToolResult with isError set, and keeps the host-side error details out', async () => {
    const failed = await offlineTools().handle('memory_search', { query: 'x', k: 0 })
    const result = toMcpCallResult(failed)
    expect(CallToolResultSchema.parse(result)).toEqual(result)
    expect(result.isError).toBe(true)
    expect(result).not.toHaveProperty('error')
    expect(failed.error).toMatchObject({ name: 'InvalidInputError', field: 'k' })
  })
})

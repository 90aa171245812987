import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callMcpTool, toMcpTools } from '../../../src/agent/adapters/mcp.ts'
import { memoryTools } from '../../../src/agent/memory-tools.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openTestMemory } from './memory.ts'

let memory: MemoryClient
let client: Client
beforeEach(async () => {
  memory = await openTestMemory()
  const tools = memoryTools(memory)
  const server = new Server({ name: 'engram', version: '0.1.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toMcpTools(tools) }))
  server.setRequestHandler(CallToolRequestSchema, (request) => callMcpTool(tools, request.params))
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(clientSide)
})
afterEach(async () => {
  await client.close()
  await memory.close()
})

describe('the tools behind a real MCP server', () => {
  it('are listed to an MCP client with their schemas and hints', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([
      'memory_search',
      'memory_store',
      'memory_update',
      'memory_forget',
      'memory_relate',
      'memory_feedback',
    ])
    const search = tools[0]!
    expect(search.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false })
    expect(search.inputSchema.required).toEqual(['query', 'k', 'types', 'tags', 'since', 'until'])
  })

  it('store then search through tools/call', async () => {
    const stored = await client.callTool({
      name: 'memory_store',
      arguments: {
        text: 'The owner prefers metric units',
        type: null,
        tags: ['units'],
        confidence: null,
      },
    })
    expect(stored.isError).toBe(false)
    const found = await client.callTool({
      name: 'memory_search',
      arguments: { query: 'metric units', k: null, types: null, tags: null },
    })
    const [part] = found.content as { type: string; text: string }[]
    expect(found.isError).toBe(false)
    expect(part?.type).toBe('text')
    expect(part?.text).toContain('\nThe owner prefers metric units\n</memory nonce=')
    expect(part?.text).toContain('source="agent" trust="unverified"')
  })

  it('report a failed call as an MCP tool error, not a protocol error', async () => {
    const result = await client.callTool({ name: 'memory_forget', arguments: { id: 'no-such-id' } })
    expect(result.isError).toBe(true)
    expect((result.content as { text: string }[])[0]?.text).toContain('memory_forget failed')
  })
})

/**
 * WebMCP tool dictionaries (`document.modelContext.registerTool(tool)`), as plain objects. The
 * standard reads `readOnlyHint` and `untrustedContentHint`; MCP-B runtimes also pass MCP's other
 * hints on to MCP clients, so all are set.
 */
import type { ObjectSchema } from '../json-schema.ts'
import type { MemoryTools } from '../memory-tools.ts'
import type { MemoryToolName, ToolHints } from '../tool-spec.ts'
import { type McpCallToolResult, toMcpCallResult } from './mcp.ts'

/** One tool for `ModelContext.registerTool`. */
export interface WebMcpTool {
  name: MemoryToolName
  title: string
  description: string
  inputSchema: ObjectSchema
  annotations: ToolHints & { untrustedContentHint: boolean }
  /** Never rejects: failures are `isError` results, so the agent sees why. */
  execute(input: Record<string, unknown>): Promise<McpCallToolResult>
}

/**
 * The tools as WebMCP dictionaries.
 *
 * @example
 * toWebMcpTools(memoryTools(memory))[0].annotations
 * // => { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false,
 * //      untrustedContentHint: true }
 */
export function toWebMcpTools(tools: MemoryTools): WebMcpTool[] {
  return tools.definitions.map((d) => ({
    name: d.name,
    title: d.title,
    description: d.description,
    inputSchema: structuredClone(d.parameters),
    annotations: { ...d.annotations, untrustedContentHint: d.untrustedContent },
    execute: async (input) => toMcpCallResult(await tools.handle(d.name, input)),
  }))
}

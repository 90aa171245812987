/**
 * Model Context Protocol shapes, as plain objects (the `@modelcontextprotocol/sdk` package is
 * not needed): the `tools/list` entries and the `tools/call` result, for an MCP server a host
 * runs over the memory.
 */
import type { ObjectSchema } from '../json-schema.ts'
import type { MemoryTools } from '../memory-tools.ts'
import type { MemoryToolDefinition, ToolResult } from '../tool-spec.ts'
import { definitionsOf, type ToolsOrDefinitions } from './definitions.ts'

/** One entry of a `tools/list` result (MCP `Tool`): a definition, its parameters as `inputSchema`. */
export type McpTool = Pick<MemoryToolDefinition, 'title' | 'description' | 'annotations'> & {
  name: string
  inputSchema: ObjectSchema
}

/**
 * A `tools/call` result (MCP `CallToolResult`): a tool result less the host-side `error`. A
 * type alias, so it fits index-signature types.
 */
export type McpCallToolResult = Omit<ToolResult, 'error'>

/**
 * The `tools` of a `tools/list` result.
 *
 * @example
 * toMcpTools(memoryTools(memory))[3].annotations
 * // => { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
 */
export function toMcpTools(tools: ToolsOrDefinitions): McpTool[] {
  return definitionsOf(tools).map((d) => ({
    name: d.name,
    title: d.title,
    description: d.description,
    inputSchema: d.parameters,
    annotations: d.annotations,
  }))
}

/** A tool result as MCP sends it (the host-side `error` details are left out). */
export function toMcpCallResult(result: ToolResult): McpCallToolResult {
  return { content: result.content.map((part) => ({ ...part })), isError: result.isError }
}

/**
 * Answers a `tools/call` request's params, e.g. in
 * `server.setRequestHandler(CallToolRequestSchema, (req) => callMcpTool(tools, req.params))`.
 */
export async function callMcpTool(
  tools: MemoryTools,
  params: { name: string; arguments?: Record<string, unknown> },
): Promise<McpCallToolResult> {
  return toMcpCallResult(await tools.handle(params.name, params.arguments ?? {}))
}

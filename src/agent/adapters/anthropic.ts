/**
 * Anthropic Messages API tool shapes, as plain objects (the `@anthropic-ai/sdk` package is not
 * needed): the `tools` list and the `tool_result` block that answers a `tool_use`.
 */
import type { ObjectSchema } from '../json-schema.ts'
import type { ToolResult } from '../tool-spec.ts'
import { definitionsOf, resultText, type ToolsOrDefinitions } from './definitions.ts'

/** A client tool (`Tool`). */
export interface AnthropicTool {
  name: string
  description: string
  input_schema: ObjectSchema
}

/**
 * The tools for `client.messages.create({ tools })`.
 *
 * @example
 * toAnthropicTools(memoryTools(memory)).map((t) => t.name)
 * // => ['memory_search', 'memory_store', 'memory_update', 'memory_forget', 'memory_relate',
 * //     'memory_feedback']
 */
export function toAnthropicTools(tools: ToolsOrDefinitions): AnthropicTool[] {
  return definitionsOf(tools).map((d) => ({
    name: d.name,
    description: d.description,
    input_schema: d.parameters,
  }))
}

/** The content block answering a `tool_use` block (`ToolResultBlockParam`), in a user turn. */
export function toAnthropicToolResult(
  toolUseId: string,
  result: ToolResult,
): { type: 'tool_result'; tool_use_id: string; content: string; is_error: boolean } {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: resultText(result),
    is_error: result.isError,
  }
}

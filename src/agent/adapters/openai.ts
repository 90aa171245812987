/**
 * OpenAI's function-tool shapes, as plain objects (the `openai` package is not needed): Chat
 * Completions `tools`, Responses `tools`, and the messages that carry a result back. The schemas
 * are in the strict subset, so every tool is sent with `strict: true`.
 */
import type { ObjectSchema } from '../json-schema.ts'
import type { ToolResult } from '../tool-spec.ts'
import { definitionsOf, resultText, type ToolsOrDefinitions } from './definitions.ts'

/** A Chat Completions tool (`ChatCompletionFunctionTool`). */
export interface OpenAIChatTool {
  type: 'function'
  function: { name: string; description: string; parameters: ObjectSchema; strict: true }
}

/** A Responses API tool (`FunctionTool`). */
export interface OpenAIResponsesTool {
  type: 'function'
  name: string
  description: string
  parameters: ObjectSchema
  strict: true
}

/**
 * The tools for `client.chat.completions.create({ tools })`.
 *
 * @example
 * toOpenAIChatTools(memoryTools(memory))[0]
 * // => { type: 'function', function: { name: 'memory_search', description: 'Search the user…',
 * //      parameters: { type: 'object', properties: {…}, required: [...], additionalProperties: false },
 * //      strict: true } }
 */
export function toOpenAIChatTools(tools: ToolsOrDefinitions): OpenAIChatTool[] {
  return definitionsOf(tools).map((d) => ({
    type: 'function',
    function: { name: d.name, description: d.description, parameters: d.parameters, strict: true },
  }))
}

/** The tools for `client.responses.create({ tools })`. */
export function toOpenAIResponsesTools(tools: ToolsOrDefinitions): OpenAIResponsesTool[] {
  return definitionsOf(tools).map((d) => ({
    type: 'function',
    name: d.name,
    description: d.description,
    parameters: d.parameters,
    strict: true,
  }))
}

/**
 * The Chat Completions message answering a tool call (`ChatCompletionToolMessageParam`). Chat
 * Completions has no error flag; a failed call's text starts with "<tool> failed" or "refused".
 */
export function toOpenAIToolMessage(
  toolCallId: string,
  result: ToolResult,
): { role: 'tool'; tool_call_id: string; content: string } {
  return { role: 'tool', tool_call_id: toolCallId, content: resultText(result) }
}

/** The Responses input item answering a `function_call` (`ResponseInputItem.FunctionCallOutput`). */
export function toOpenAIFunctionCallOutput(
  callId: string,
  result: ToolResult,
): { type: 'function_call_output'; call_id: string; output: string } {
  return { type: 'function_call_output', call_id: callId, output: resultText(result) }
}

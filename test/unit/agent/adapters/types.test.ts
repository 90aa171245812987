/**
 * Type-level checks: each adapter's output is assignable to the framework's own published type.
 * `tsc --noEmit` compiles this file (it fails the type check, not the test run, when a shape
 * drifts); the runtime assertions only keep the values honest.
 */
import type {
  Tool as AnthropicTool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages'
import type { ModelContext, ModelContextTool, ToolDescriptor } from '@mcp-b/webmcp-types'
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js'
import type { Tool as AiTool, ToolSet } from 'ai'
import type {
  ChatCompletionFunctionTool,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions'
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { AiSdkTool } from '../../../../src/agent/adapters/ai-sdk.ts'
import { toAiSdkTools } from '../../../../src/agent/adapters/ai-sdk.ts'
import type { AnthropicTool as OurAnthropicTool } from '../../../../src/agent/adapters/anthropic.ts'
import {
  toAnthropicToolResult,
  toAnthropicTools,
} from '../../../../src/agent/adapters/anthropic.ts'
import type {
  McpCallToolResult,
  McpTool as OurMcpTool,
} from '../../../../src/agent/adapters/mcp.ts'
import { toMcpCallResult, toMcpTools } from '../../../../src/agent/adapters/mcp.ts'
import type { OpenAIChatTool, OpenAIResponsesTool } from '../../../../src/agent/adapters/openai.ts'
import {
  toOpenAIChatTools,
  toOpenAIFunctionCallOutput,
  toOpenAIResponsesTools,
  toOpenAIToolMessage,
} from '../../../../src/agent/adapters/openai.ts'
import type { WebMcpTool } from '../../../../src/agent/adapters/webmcp.ts'
import { toWebMcpTools } from '../../../../src/agent/adapters/webmcp.ts'
import type { ModelContextLike } from '../../../../src/agent/register-memory-tools.ts'
import type { ToolResult } from '../../../../src/agent/tool-spec.ts'
import { offlineTools } from './tools.ts'

describe('adapter types', () => {
  it('fit OpenAI’s Chat Completions and Responses types', () => {
    expectTypeOf<OpenAIChatTool>().toExtend<ChatCompletionFunctionTool>()
    expectTypeOf<OpenAIChatTool>().toExtend<ChatCompletionTool>()
    expectTypeOf<OpenAIResponsesTool>().toExtend<FunctionTool>()
    expectTypeOf(toOpenAIToolMessage).returns.toExtend<ChatCompletionToolMessageParam>()
    expectTypeOf(
      toOpenAIFunctionCallOutput,
    ).returns.toExtend<ResponseInputItem.FunctionCallOutput>()
    const chat: ChatCompletionTool[] = toOpenAIChatTools(offlineTools())
    const responses: FunctionTool[] = toOpenAIResponsesTools(offlineTools())
    expect(chat.length + responses.length).toBe(12)
  })

  it('fit Anthropic’s Tool and ToolResultBlockParam', () => {
    expectTypeOf<OurAnthropicTool>().toExtend<AnthropicTool>()
    expectTypeOf(toAnthropicToolResult).returns.toExtend<ToolResultBlockParam>()
    const tools: AnthropicTool[] = toAnthropicTools(offlineTools())
    expect(tools).toHaveLength(6)
  })

  it('fit the AI SDK’s Tool and ToolSet', () => {
    expectTypeOf<AiSdkTool>().toExtend<AiTool>()
    const set: ToolSet = toAiSdkTools(offlineTools())
    expect(Object.keys(set)).toHaveLength(6)
  })

  it('fit the MCP SDK’s Tool and CallToolResult', () => {
    expectTypeOf<OurMcpTool>().toExtend<McpTool>()
    expectTypeOf<McpCallToolResult>().toExtend<CallToolResult>()
    expectTypeOf<ToolResult>().toExtend<CallToolResult>()
    const tools: McpTool[] = toMcpTools(offlineTools())
    const result: CallToolResult = toMcpCallResult({ content: [], isError: false })
    expect(tools.length + result.content.length).toBe(6)
  })

  it('fit WebMCP’s tool dictionaries, and take a real ModelContext', () => {
    expectTypeOf<WebMcpTool>().toExtend<ToolDescriptor>()
    expectTypeOf<Omit<WebMcpTool, 'annotations'>>().toExtend<
      Omit<ModelContextTool, 'annotations'>
    >()
    expectTypeOf<ModelContext>().toExtend<ModelContextLike>()
    expect(toWebMcpTools(offlineTools())).toHaveLength(6)
  })
})

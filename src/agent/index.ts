/**
 * Engram for agents: the read-time fence (`formatMemoriesForPrompt`), per-turn context
 * (`contextFor`), the agent tools (`memoryTools`) with adapters to OpenAI, Anthropic, the
 * Vercel AI SDK and MCP, and WebMCP registration. Depends only on the `MemoryApi` contract.
 */

export {
  type AiSdkTool,
  type StandardJsonSchema,
  toAiSdkTools,
} from './adapters/ai-sdk.ts'
export {
  type AnthropicTool,
  toAnthropicToolResult,
  toAnthropicTools,
} from './adapters/anthropic.ts'
export type { ToolsOrDefinitions } from './adapters/definitions.ts'
export {
  callMcpTool,
  type McpCallToolResult,
  type McpTool,
  toMcpCallResult,
  toMcpTools,
} from './adapters/mcp.ts'
export {
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  toOpenAIChatTools,
  toOpenAIFunctionCallOutput,
  toOpenAIResponsesTools,
  toOpenAIToolMessage,
} from './adapters/openai.ts'
export { toWebMcpTools, type WebMcpTool } from './adapters/webmcp.ts'
export { type ContextOptions, contextFor } from './context-for.ts'
export { defuseText } from './fence.ts'
export {
  FLAGGED_POLICIES,
  type FlaggedPolicy,
  type FormatMemoriesOptions,
  type FormattedMemories,
  formatMemoriesForPrompt,
  type PromptHit,
  packMemoriesForPrompt,
} from './format-memories.ts'
export {
  checkArguments,
  type JsonSchema,
  type JsonType,
  type ObjectSchema,
  strictSchemaProblems,
} from './json-schema.ts'
export { type MemoryTools, memoryTools } from './memory-tools.ts'
export {
  type ModelContextLike,
  type RegisterMemoryToolsOptions,
  type RegisterMemoryToolsResult,
  registerMemoryTools,
} from './register-memory-tools.ts'
export { relevanceFloor } from './relevance.ts'
export { estimateTokens } from './token-estimate.ts'
export {
  DEFAULT_TOOL_SETTINGS,
  type MemoryToolOptions,
  type ToolSettings,
} from './tool-settings.ts'
export {
  MEMORY_TOOL_NAMES,
  type MemoryToolDefinition,
  type MemoryToolName,
  type ToolHints,
  type ToolResult,
} from './tool-spec.ts'

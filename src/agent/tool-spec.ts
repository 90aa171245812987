/**
 * The shape every agent tool is defined in, once; the adapters turn it into each framework's
 * own. Plain data and functions: no SDK is imported at run time.
 */
import type { MemoryApi } from '../core/types.ts'
import type { ObjectSchema } from './json-schema.ts'
import type { MemoryToolName } from './tool-names.ts'
import type { ToolSettings } from './tool-settings.ts'

export { MEMORY_TOOL_NAMES, type MemoryToolName } from './tool-names.ts'

/**
 * MCP's behaviour hints (`ToolAnnotations`), all set. A hint is advice to the client (whether to
 * ask the user first, whether a retry is safe), never a security boundary.
 */
export interface ToolHints {
  /** The tool changes nothing. */
  readOnlyHint: boolean
  /** It may remove or overwrite data (meaningful when not read-only). */
  destructiveHint: boolean
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean
  /** It reaches outside the memory (the web, other services): never, for Engram's tools. */
  openWorldHint: false
}

/**
 * The hints of a tool that removes or overwrites a memory, where a repeat with the same arguments
 * changes nothing more (`memory_update`, `memory_forget`).
 */
export const OVERWRITE_HINTS: Readonly<ToolHints> = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
})

/** One tool as offered to a model, before any framework's wrapping. */
export interface MemoryToolDefinition {
  name: MemoryToolName
  /** A short human title (MCP's `title`). */
  title: string
  /** Written for the model: when to call the tool, what it returns, what to make of it. */
  description: string
  /** JSON Schema of the arguments, in OpenAI's strict subset (see `strictSchemaProblems`). */
  parameters: ObjectSchema
  annotations: ToolHints
  /** Results quote stored memory text, which is untrusted (WebMCP's `untrustedContentHint`). */
  untrustedContent: boolean
}

/**
 * What a tool call returns, in MCP's `CallToolResult` shape: text for the model, `isError` set
 * when the call failed (bad arguments, a rejected write, a missing id). Tool calls never throw.
 * (A type alias rather than an interface, so it is assignable to SDK types with index signatures.)
 *
 * @example
 * await tools.handle('memory_forget', { id: 'nope' })
 * // => { content: [{ type: 'text', text: 'memory_forget failed: [NOT_FOUND] no memory with id "nope"' }],
 * //      isError: true, error: { name: 'MemoryNotFoundError', code: 'NOT_FOUND' } }
 */
export type ToolResult = {
  content: { type: 'text'; text: string }[]
  isError: boolean
  /** On failure, the catalogue error's `name`, `code` and `field`, for the host (not the model). */
  error?: { name: string; code?: string; field?: string }
}

/** What a tool's `run` gets besides its arguments. */
export interface ToolContext {
  memory: MemoryApi
  settings: ToolSettings
}

/**
 * One entry of the tool table. A new tool is one more spec: the definition, the adapters, the
 * argument check, read-only filtering and error handling all follow from it.
 */
export interface ToolSpec {
  name: MemoryToolName
  title: string
  /** Changes memories: left out in read-only mode. */
  writes: boolean
  annotations: ToolHints
  untrustedContent: boolean
  /** The description for the model; may quote settings (default k, namespace). */
  describe(settings: ToolSettings): string
  parameters(settings: ToolSettings): ObjectSchema
  /** Does the work with arguments already checked against `parameters`; returns the model's text. */
  run(context: ToolContext, args: Record<string, unknown>): Promise<string>
}

/**
 * `memoryTools`: the agent tools over any `MemoryApi`, as framework-neutral definitions plus one
 * `handle(name, args)` that every adapter calls.
 */
import { InvalidInputError } from '../core/errors.ts'
import type { MemoryApi } from '../core/types.ts'
import { checkArguments } from './json-schema.ts'
import { errorResult, textResult } from './tool-result.ts'
import { type MemoryToolOptions, resolveToolSettings, type ToolSettings } from './tool-settings.ts'
import type { MemoryToolDefinition, ToolResult, ToolSpec } from './tool-spec.ts'
import { TOOL_SPECS } from './tool-table.ts'

/** The tools of one memory, as `memoryTools` returns them. */
export interface MemoryTools {
  /** The offered tools, in `MEMORY_TOOL_NAMES` order. Feed them to an adapter (`toOpenAITools`…). */
  readonly definitions: readonly MemoryToolDefinition[]
  /** The options in force, defaults applied. */
  readonly settings: Readonly<ToolSettings>
  /**
   * Runs a tool call: checks `args` (an object, or the JSON string OpenAI sends) against the
   * tool's schema, calls the memory, and renders the outcome for the model. Never throws: a bad
   * argument, a refused write or a missing id come back as `{ isError: true, content }`.
   *
   * @example
   * await tools.handle('memory_store', { text: 'The owner prefers metric units', type: null, tags: null, confidence: null })
   * // => { content: [{ type: 'text', text: 'Stored as memory 01K….' }], isError: false }
   */
  handle(name: string, args: unknown): Promise<ToolResult>
}

/**
 * The agent tools (`memory_search`, `memory_store`, `memory_update`, `memory_forget`,
 * `memory_relate`, `memory_feedback`) over a memory: an `openMemory` client, the in-process client or an engine. The host's options pin
 * the namespace, provenance and poison policy; the model only supplies each call's arguments.
 * Throws `InvalidInputError` for a bad option.
 *
 * @example
 * const tools = memoryTools(memory, { namespace: 'assistant', readOnly: true })
 * tools.definitions.map((d) => d.name)
 * // => ['memory_search']
 */
export function memoryTools(memory: MemoryApi, options: MemoryToolOptions = {}): MemoryTools {
  const settings = Object.freeze(resolveToolSettings(options))
  const specs = settings.tools.map((name) => TOOL_SPECS[name] as ToolSpec)
  const definitions = Object.freeze(specs.map((spec) => definitionOf(spec, settings)))
  const offered = new Map(
    specs.map((spec, i) => [spec.name as string, { spec, definition: definitions[i]! }]),
  )
  return {
    definitions,
    settings,
    async handle(name, args) {
      try {
        const tool = offered.get(name)
        if (!tool) throw unknownTool(name, [...offered.keys()])
        const checked = checkArguments(tool.definition.parameters, parseArguments(args))
        return textResult(await tool.spec.run({ memory, settings }, checked))
      } catch (error) {
        return errorResult(typeof name === 'string' ? name : 'tool', error)
      }
    },
  }
}

function definitionOf(spec: ToolSpec, settings: ToolSettings): MemoryToolDefinition {
  return deepFreeze({
    name: spec.name,
    title: spec.title,
    description: spec.describe(settings),
    parameters: spec.parameters(settings),
    annotations: { ...spec.annotations },
    untrustedContent: spec.untrustedContent,
  })
}

/** Arguments as an object; a string is the JSON text a model produced. */
function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args
  try {
    return JSON.parse(args)
  } catch {
    throw new InvalidInputError(
      'BAD_OPTION',
      'arguments',
      `expected a JSON object, got ${JSON.stringify(args.slice(0, 60))}`,
    )
  }
}

function unknownTool(name: unknown, offered: string[]): InvalidInputError {
  const known = offered.length > 0 ? offered.join(', ') : 'none'
  return new InvalidInputError(
    'BAD_OPTION',
    'name',
    `expected one of the offered tools (${known}), got ${JSON.stringify(name)}`,
  )
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

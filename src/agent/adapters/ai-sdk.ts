/**
 * Vercel AI SDK tools as plain objects (the `ai` package is not needed at run time): each is the
 * shape `tool({ description, inputSchema, execute })` returns. The schema is passed as a
 * Standard Schema with a JSON Schema converter, which the SDK accepts beside its own
 * `jsonSchema()` wrapper; arguments are checked by the tool itself, so a bad one comes back to
 * the model as a tool error it can fix.
 */
import type { MemoryTools } from '../memory-tools.ts'
import type { MemoryToolName, ToolResult } from '../tool-spec.ts'
import { resultText } from './definitions.ts'

/** A Standard Schema v1 (`~standard`) that also converts to JSON Schema. */
export interface StandardJsonSchema {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => { value: unknown }
    readonly jsonSchema: {
      readonly input: (options: { target: string }) => Record<string, unknown>
      readonly output: (options: { target: string }) => Record<string, unknown>
    }
  }
}

/** One AI SDK tool. */
export interface AiSdkTool {
  description: string
  inputSchema: StandardJsonSchema
  strict: true
  execute(input: unknown): Promise<ToolResult>
  /** Failed calls reach the model as `error-text`, the rest as `text`. */
  toModelOutput(options: { output: ToolResult }): { type: 'text' | 'error-text'; value: string }
}

/**
 * The tools for `generateText({ tools })` / `streamText({ tools })`, keyed by name.
 *
 * @example
 * const { text } = await generateText({ model, tools: toAiSdkTools(memoryTools(memory)), prompt })
 */
export function toAiSdkTools(tools: MemoryTools): Record<MemoryToolName, AiSdkTool> {
  const out = {} as Record<MemoryToolName, AiSdkTool>
  for (const definition of tools.definitions) {
    out[definition.name] = {
      description: definition.description,
      inputSchema: standardJsonSchema(definition.parameters),
      strict: true,
      execute: (input) => tools.handle(definition.name, input),
      toModelOutput: ({ output }) => ({
        type: output.isError ? 'error-text' : 'text',
        value: resultText(output),
      }),
    }
  }
  return out
}

function standardJsonSchema(schema: object): StandardJsonSchema {
  // The SDK rewrites the schema it is given in place, so each call gets its own copy.
  const copy = (): Record<string, unknown> => structuredClone(schema) as Record<string, unknown>
  return {
    '~standard': {
      version: 1,
      vendor: 'engram',
      validate: (value) => ({ value }),
      jsonSchema: { input: copy, output: copy },
    },
  }
}

import type { MemoryTools } from '../memory-tools.ts'
import type { MemoryToolDefinition } from '../tool-spec.ts'

/** What every adapter accepts: the tools, or just their definitions. */
export type ToolsOrDefinitions = MemoryTools | readonly MemoryToolDefinition[]

/** The definitions, each a fresh mutable copy (some SDKs rewrite schemas in place). */
export function definitionsOf(tools: ToolsOrDefinitions): MemoryToolDefinition[] {
  const list = 'definitions' in tools ? tools.definitions : tools
  return list.map((definition) => structuredClone(definition))
}

/** A result's text, its content parts joined. */
export function resultText(result: { content: { text: string }[] }): string {
  return result.content.map((part) => part.text).join('\n')
}

/**
 * The tool table: one spec per tool, in `MEMORY_TOOL_NAMES` order. `memory_relate` joins here
 * when relations land.
 */
import type { MemoryToolName, ToolSpec } from './tool-spec.ts'
import { forgetTool } from './tools/forget.ts'
import { searchTool } from './tools/search.ts'
import { storeTool } from './tools/store.ts'
import { updateTool } from './tools/update.ts'

/** Every tool, by name; `satisfies` keeps it in step with `MEMORY_TOOL_NAMES`. */
export const TOOL_SPECS = {
  memory_search: searchTool,
  memory_store: storeTool,
  memory_update: updateTool,
  memory_forget: forgetTool,
} as const satisfies Record<MemoryToolName, ToolSpec>

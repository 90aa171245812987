/**
 * The tool table: one spec per tool, in `MEMORY_TOOL_NAMES` order.
 */
import type { MemoryToolName, ToolSpec } from './tool-spec.ts'
import { feedbackTool } from './tools/feedback.ts'
import { forgetTool } from './tools/forget.ts'
import { relateTool } from './tools/relate.ts'
import { searchTool } from './tools/search.ts'
import { storeTool } from './tools/store.ts'
import { updateTool } from './tools/update.ts'

/** Every tool, by name; `satisfies` keeps it in step with `MEMORY_TOOL_NAMES`. */
export const TOOL_SPECS = {
  memory_search: searchTool,
  memory_store: storeTool,
  memory_update: updateTool,
  memory_forget: forgetTool,
  memory_relate: relateTool,
  memory_feedback: feedbackTool,
} as const satisfies Record<MemoryToolName, ToolSpec>

/** Every tool Engram offers an agent, in the order they are listed to a model. */
export const MEMORY_TOOL_NAMES = [
  'memory_search',
  'memory_store',
  'memory_update',
  'memory_forget',
  'memory_relate',
  'memory_feedback',
] as const

export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number]

/** Tools over a memory that is never called: enough to build definitions and tool errors. */
import { type MemoryTools, memoryTools } from '../../../../src/agent/memory-tools.ts'
import type { MemoryToolOptions } from '../../../../src/agent/tool-settings.ts'
import type { MemoryApi } from '../../../../src/core/types.ts'

export function offlineTools(options?: MemoryToolOptions): MemoryTools {
  const unreachable = new Proxy({} as MemoryApi, {
    get: (_target, method) => () =>
      Promise.reject(new Error(`memory.${String(method)} was called`)),
  })
  return memoryTools(unreachable, options)
}

/**
 * WebMCP registration from the page: the agent tools offered to the browser's agent through
 * `document.modelContext` (a worker cannot register tools itself, so the page does it for the
 * memory the worker holds).
 */
import type { MemoryApi } from '../core/types.ts'
import { toWebMcpTools, type WebMcpTool } from './adapters/webmcp.ts'
import { memoryTools } from './memory-tools.ts'
import type { MemoryToolOptions } from './tool-settings.ts'
import type { MemoryToolName } from './tool-spec.ts'

/** The part of WebMCP's `ModelContext` this uses. Older runtimes returned a handle with `unregister()`. */
export interface ModelContextLike {
  registerTool(
    tool: WebMcpTool,
    options?: { signal?: AbortSignal; exposedTo?: string[] },
  ): Promise<unknown> | unknown
}

/** Options for {@link registerMemoryTools}: the tool options plus the registration's own. */
export interface RegisterMemoryToolsOptions extends MemoryToolOptions {
  /** Aborting it unregisters every tool. Without it, call the result's `unregister()`. */
  signal?: AbortSignal
  /**
   * Origins of other documents that may see the tools (WebMCP's cross-document exposure). The
   * polyfill refuses any (`NotSupportedError`, reported as `reason: 'failed'`). @default none
   */
  exposedTo?: string[]
  /** The model context to register with. @default document.modelContext ?? navigator.modelContext */
  modelContext?: ModelContextLike
}

/** Whether the tools were registered, and why not. */
export type RegisterMemoryToolsResult =
  | { registered: true; tools: MemoryToolName[]; unregister(): void }
  | {
      registered: false
      /** No model context on this page; the signal was already aborted; the runtime refused. */
      reason: 'unsupported' | 'aborted' | 'failed'
      error?: unknown
    }

/**
 * Registers the agent tools with the page's model context, feature-detected: `document
 * .modelContext` (the current draft), else `navigator.modelContext` (earlier ones and the
 * polyfill's alias). Either every tool is registered or none stays registered. Aborting
 * `signal` removes them. Throws only for bad tool options.
 *
 * @example
 * const controller = new AbortController()
 * await registerMemoryTools(memory, { signal: controller.signal, readOnly: true })
 * // => { registered: true, tools: ['memory_search'], unregister: [Function] }
 * // (without WebMCP or its polyfill: { registered: false, reason: 'unsupported' })
 */
export async function registerMemoryTools(
  memory: MemoryApi,
  options: RegisterMemoryToolsOptions = {},
): Promise<RegisterMemoryToolsResult> {
  const { signal, exposedTo, modelContext, ...toolOptions } = options
  const tools = memoryTools(memory, toolOptions)
  const context = modelContext ?? findModelContext()
  if (!context) return { registered: false, reason: 'unsupported' }
  if (signal?.aborted) return { registered: false, reason: 'aborted' }
  const registration = linkedController(signal)
  try {
    for (const tool of toWebMcpTools(tools)) {
      const handle = await context.registerTool(tool, {
        signal: registration.controller.signal,
        ...(exposedTo ? { exposedTo } : {}),
      })
      registration.track(handle)
    }
  } catch (error) {
    registration.controller.abort()
    return { registered: false, reason: signal?.aborted ? 'aborted' : 'failed', error }
  }
  return {
    registered: true,
    tools: tools.definitions.map((d) => d.name),
    unregister: () => registration.controller.abort(),
  }
}

function findModelContext(): ModelContextLike | undefined {
  const g = globalThis as {
    document?: { modelContext?: unknown }
    navigator?: { modelContext?: unknown }
  }
  const context = g.document?.modelContext ?? g.navigator?.modelContext
  return isModelContext(context) ? context : undefined
}

function isModelContext(value: unknown): value is ModelContextLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { registerTool?: unknown }).registerTool === 'function'
  )
}

/**
 * One controller for the whole registration, aborted by the caller's signal or by
 * `unregister()`; on abort it also calls any `unregister()` handle an older runtime returned.
 */
function linkedController(signal: AbortSignal | undefined): {
  controller: AbortController
  track(handle: unknown): void
} {
  const controller = new AbortController()
  const handles: { unregister(): void }[] = []
  const forward = (): void => controller.abort(signal?.reason)
  signal?.addEventListener('abort', forward, { once: true })
  controller.signal.addEventListener(
    'abort',
    () => {
      signal?.removeEventListener('abort', forward)
      for (const handle of handles.splice(0)) {
        try {
          handle.unregister()
        } catch {}
      }
    },
    { once: true },
  )
  return {
    controller,
    track(handle) {
      const unregister = (handle as { unregister?: unknown } | null)?.unregister
      if (typeof unregister === 'function') handles.push(handle as { unregister(): void })
    },
  }
}

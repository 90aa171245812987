import type { MemoryEvent, MemoryEventListener } from '../core/types.ts'

/** The listeners of one client: `dispatch` fans an event out, `on` adds one and returns its remover. */
export interface EventListeners {
  dispatch(event: MemoryEvent): void
  on(listener: MemoryEventListener): () => void
}

export function eventListeners(first?: MemoryEventListener): EventListeners {
  const listeners = new Set<MemoryEventListener>()
  if (first) listeners.add(first)
  return {
    dispatch(event) {
      for (const listener of listeners) {
        try {
          listener(event)
        } catch (error) {
          // One broken listener must not starve the others, nor throw into the engine or worker.
          queueMicrotask(() => {
            throw error
          })
        }
      }
    },
    on(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

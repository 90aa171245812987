/**
 * Names other contexts must agree on for one memory: tabs, workers and extension pages of the
 * same origin meet on these. Built here only, so the engine's lock and tab sync cannot drift.
 */

/** The BroadcastChannel on which a memory's writers announce changes. */
export function syncChannelName(memory: string): string {
  return `engram:${memory}:changes`
}

/** The Web Lock that serialises a memory's writers across tabs. */
export function writeLockName(memory: string): string {
  return `engram:${memory}:write`
}

/** The Web Lock held by the one tab that runs a memory's automatic review. */
export function reviewLockName(memory: string): string {
  return `engram:${memory}:review`
}

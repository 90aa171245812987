import type { FirstPartyStorage } from './first-party-storage.ts'
import type { PathReport } from './protocol.ts'

/**
 * The words of the paths report: which way the host page reached the memory's first-party
 * storage, and why the ways before it were not used. Kept apart from `serve-origins.ts` so the
 * fallback order reads in one place: frame, storage access, window (then the extension, which
 * is not a host page's to offer).
 */

/** Where the host page runs: the embedder's iframe, or a window the embedder opened. */
export type HostPlacement = 'frame' | 'window'

/** What the app is told when the window may still work: it needs the app's own click. */
export const WINDOW_NOT_TRIED: PathReport = {
  via: 'window',
  used: false,
  reason:
    "not tried: it needs a click in the embedding page, which calls embedMemory({ host, via: 'window' }) in its handler",
}

/** The reports of a connection that reached `place`. */
export function reachedPaths(
  placement: HostPlacement,
  place: FirstPartyStorage,
  afterPrompt: boolean,
): PathReport[] {
  if (placement === 'window') return [{ via: 'window', used: true, reason: place.reason }]
  if (place.via !== 'storage-access-handle') {
    return [{ via: 'frame', used: true, reason: place.reason }]
  }
  return [
    { via: 'frame', used: false, reason: "the frame's own storage is partitioned or blocked" },
    {
      via: 'storage-access',
      used: true,
      reason: afterPrompt
        ? `granted on the Allow click: ${place.reason}`
        : `granted without a prompt (third-party cookies allowed, or granted before): ${place.reason}`,
    },
  ]
}

/** The reports of a frame that found no first-party storage, even after the Allow click. */
export function missedPaths(refusal: string): PathReport[] {
  return [
    {
      via: 'frame',
      used: false,
      reason: "the frame's own storage is partitioned or blocked, and no access was granted before",
    },
    { via: 'storage-access', used: false, reason: refusal },
    WINDOW_NOT_TRIED,
  ]
}

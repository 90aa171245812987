/**
 * The host origin's own (first-party) storage, from inside an iframe on another site. Browsers
 * partition or block a third-party frame's storage, so the frame would otherwise open an empty
 * memory that is not the user's. The Storage Access API hands the frame a handle on its
 * unpartitioned IndexedDB, Web Locks and BroadcastChannel (Chromium 125+,
 * `requestStorageAccess({ indexedDB: true, … })`); elsewhere a granted request unpartitions the
 * frame's storage itself (Firefox). A top-level page already has it.
 */

/** Where the memory, its locks and its change announcements live for the host page. */
export interface FirstPartyStorage {
  indexedDB: IDBFactory
  IDBKeyRange: typeof IDBKeyRange
  /** @default navigator.locks */
  locks: LockManager | undefined
  /** Opens a BroadcastChannel of the first-party origin's (a handle's is a method, not a class). */
  openChannel: ((name: string) => BroadcastChannel) | undefined
  localStorage: Storage | undefined
  /**
   * How it was reached: the page is top-level, a storage-access handle, or the frame's own
   * storage once access was granted (or in a browser that does not partition).
   */
  via: 'top-level' | 'storage-access-handle' | 'frame'
  /** Why the browser answered so, in words for the paths report. */
  reason: string
}

/** The part of `StorageAccessHandle` used here (Chromium; not yet in TypeScript's DOM types). */
interface StorageAccessHandle {
  indexedDB?: IDBFactory
  locks?: LockManager
  BroadcastChannel?: (name: string) => BroadcastChannel
  localStorage?: Storage
}

type RequestStorageAccess = (
  types?: Record<string, boolean>,
) => Promise<StorageAccessHandle | undefined>

let granted: Promise<FirstPartyStorage | undefined> | undefined
let refusal = 'storage access was not asked for yet'

/** Why the last attempt found no first-party storage (meaningful after one answered `undefined`). */
export function whyNoFirstPartyStorage(): string {
  return refusal
}

/**
 * The first-party storage if the page may have it without asking the user: top-level, access
 * already granted (for this pair of sites, or because the browser allows third-party storage),
 * or a browser without partitioning. `undefined` when only a user gesture can unlock it.
 */
export function firstPartyStorage(): Promise<FirstPartyStorage | undefined> {
  granted ??= kept(request())
  return granted
}

/**
 * Like {@link firstPartyStorage}, for a click handler: the user's activation lets the browser
 * grant access (it may show its own prompt). Call it first thing in the handler, before any
 * other `await`, while the activation lasts.
 */
export function requestFirstPartyStorage(): Promise<FirstPartyStorage | undefined> {
  granted = kept(request())
  return granted
}

/** Keeps a success for the page's lifetime; a refusal without a gesture is not final. */
function kept(
  attempt: Promise<FirstPartyStorage | undefined>,
): Promise<FirstPartyStorage | undefined> {
  const settled = attempt.then((storage) => {
    if (!storage && granted === settled) granted = undefined
    return storage
  })
  return settled
}

async function request(): Promise<FirstPartyStorage | undefined> {
  if (window.top === window) return own('top-level', 'the page is a top-level window of its origin')
  const requestAccess = (document as { requestStorageAccess?: RequestStorageAccess })
    .requestStorageAccess
  if (typeof requestAccess !== 'function') {
    return own('frame', 'this browser has no Storage Access API, so it does not partition frames')
  }
  let handle: StorageAccessHandle | undefined
  try {
    handle = await requestAccess.call(document, {
      indexedDB: true,
      locks: true,
      BroadcastChannel: true,
      localStorage: true,
    })
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: '' }
    refusal = `requestStorageAccess was refused (${name}: ${message || String(error)})`
    return undefined
  }
  if (handle?.indexedDB) {
    return {
      indexedDB: handle.indexedDB,
      IDBKeyRange,
      locks: handle.locks,
      openChannel: handle.BroadcastChannel?.bind(handle),
      localStorage: handle.localStorage,
      via: 'storage-access-handle',
      reason: 'requestStorageAccess({ indexedDB: true }) handed over the unpartitioned IndexedDB',
    }
  }
  if (await document.hasStorageAccess()) {
    return own('frame', "storage access was granted, so the frame's own storage is first-party")
  }
  refusal = 'requestStorageAccess resolved, yet the frame has no storage access'
  return undefined
}

function own(via: FirstPartyStorage['via'], reason: string): FirstPartyStorage {
  let localStorage: Storage | undefined
  try {
    localStorage = globalThis.localStorage
  } catch {}
  return {
    indexedDB,
    IDBKeyRange,
    locks: navigator.locks,
    openChannel:
      typeof BroadcastChannel === 'undefined' ? undefined : (name) => new BroadcastChannel(name),
    localStorage,
    via,
    reason,
  }
}

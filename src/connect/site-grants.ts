import { Dexie, type Table } from 'dexie'
import { InvalidInputError } from '../core/errors.ts'
import { originNamespace } from './protocol.ts'

/** What the user decided for an origin: it may use the memory, or it is refused without asking. */
export type GrantState = 'allowed' | 'denied'

/** One origin's standing with one memory: a row of the host origin's `engram-sites` database. */
export interface SiteGrant {
  /** The memory (database name) the decision is about, e.g. `'engram-app'`. */
  memory: string
  /** The embedding page's origin, e.g. `'https://example.test'`. */
  origin: string
  state: GrantState
  /**
   * The namespaces the origin may read and write; the first is where its writes go by default.
   * Always starts with its own, `origin:<origin>`. Empty for a denied origin.
   */
  namespaces: string[]
  /** Epoch milliseconds of the decision. */
  decidedAt: number
  /** Epoch milliseconds of the origin's last connection. */
  lastUsedAt?: number
}

/** Where the allow-list lives: the browser's IndexedDB, or another factory (a storage-access handle, fake-indexeddb). */
export interface SiteGrantsEnvironment {
  indexedDB?: IDBFactory
  IDBKeyRange?: typeof IDBKeyRange
  /**
   * Tells other contexts of the host origin (a "Connected sites" panel, another host page) that
   * a decision changed. @default `new BroadcastChannel(name)` where BroadcastChannel exists
   */
  openChannel?: (name: string) => BroadcastChannel
  /** @default Date.now */
  clock?: () => number
}

/** The database's name; one per host origin, beside the memories' own `engram:<name>` databases. */
export const SITE_GRANTS_DATABASE = 'engram-sites'
const CHANGES_CHANNEL = 'engram-sites:changes'

class GrantsDatabase extends Dexie {
  declare grants: Table<SiteGrant, [string, string]>
  constructor(environment: SiteGrantsEnvironment) {
    const { indexedDB, IDBKeyRange } = environment
    super(SITE_GRANTS_DATABASE, {
      ...(indexedDB ? { indexedDB } : {}),
      ...(IDBKeyRange ? { IDBKeyRange } : {}),
    })
    this.version(1).stores({ grants: '[memory+origin], memory' })
  }
}

/**
 * The allow-list of origins that may use a memory through the host page. It lives in the host
 * origin's own IndexedDB, so an embedding origin can neither read nor write it: only the host
 * page (after the user's click) and the app's "Connected sites" panel change it.
 *
 * @example
 * const grants = SiteGrants.open()
 * await grants.allow('engram-app', 'https://example.test')
 * // => { memory: 'engram-app', origin: 'https://example.test', state: 'allowed',
 * //      namespaces: ['origin:https://example.test'], decidedAt: 1764583200000 }
 */
export class SiteGrants {
  readonly #db: GrantsDatabase
  readonly #clock: () => number
  readonly #channel: BroadcastChannel | undefined
  readonly #listeners = new Set<() => void>()

  private constructor(environment: SiteGrantsEnvironment) {
    this.#db = new GrantsDatabase(environment)
    this.#clock = environment.clock ?? Date.now
    const open =
      environment.openChannel ??
      (typeof BroadcastChannel === 'undefined'
        ? undefined
        : (name: string) => new BroadcastChannel(name))
    this.#channel = open?.(CHANGES_CHANNEL)
    this.#channel?.addEventListener('message', () => this.#notify())
  }

  /** Opens the allow-list (the database opens on first use). */
  static open(environment: SiteGrantsEnvironment = {}): SiteGrants {
    return new SiteGrants(environment)
  }

  /** The decision for `origin` on `memory`, if the user made one. */
  get(memory: string, origin: string): Promise<SiteGrant | undefined> {
    return this.#db.grants.get([memory, checkOrigin(origin)])
  }

  /** Every decision about `memory`, most recent first. */
  async list(memory: string): Promise<SiteGrant[]> {
    const rows = await this.#db.grants.where('memory').equals(memory).toArray()
    return rows.sort((a, b) => b.decidedAt - a.decidedAt)
  }

  /**
   * Lets `origin` use `memory`: its own namespace, plus any `namespaces` the user grants on top.
   */
  allow(
    memory: string,
    origin: string,
    options: { namespaces?: string[] } = {},
  ): Promise<SiteGrant> {
    const own = originNamespace(checkOrigin(origin))
    const namespaces = [...new Set([own, ...(options.namespaces ?? [])])]
    return this.#decide({ memory, origin, state: 'allowed', namespaces, decidedAt: this.#clock() })
  }

  /** Refuses `origin` from now on, without asking again. */
  deny(memory: string, origin: string): Promise<SiteGrant> {
    checkOrigin(origin)
    return this.#decide({
      memory,
      origin,
      state: 'denied',
      namespaces: [],
      decidedAt: this.#clock(),
    })
  }

  /**
   * Forgets the decision: an allowed origin loses access at its next call, and is asked again
   * the next time it connects. Returns whether there was a decision to forget.
   */
  async revoke(memory: string, origin: string): Promise<boolean> {
    const key: [string, string] = [memory, checkOrigin(origin)]
    const existed = await this.#db.transaction('rw', this.#db.grants, async () => {
      const found = (await this.#db.grants.get(key)) !== undefined
      await this.#db.grants.delete(key)
      return found
    })
    this.#changed()
    return existed
  }

  /** Records that `origin` connected now (shown in "Connected sites"). */
  async touch(memory: string, origin: string): Promise<void> {
    await this.#db.grants.update([memory, checkOrigin(origin)], { lastUsedAt: this.#clock() })
    this.#changed()
  }

  /** Calls `listener` after any decision changes, here or in another context of the host origin. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  close(): void {
    this.#listeners.clear()
    this.#channel?.close()
    this.#db.close()
  }

  async #decide(grant: SiteGrant): Promise<SiteGrant> {
    await this.#db.grants.put(grant)
    this.#changed()
    return grant
  }

  #changed(): void {
    this.#channel?.postMessage('changed')
    this.#notify()
  }

  #notify(): void {
    for (const listener of this.#listeners) listener()
  }
}

/**
 * An origin as `MessageEvent.origin` gives it (`https://example.test`, `http://127.0.0.1:5173`):
 * no path, no trailing slash, and never the opaque `'null'` of sandboxed frames and files,
 * which would name every such page at once.
 */
export function checkOrigin(origin: string): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(origin)
  } catch {}
  if (!parsed || parsed.origin === 'null' || parsed.origin !== origin) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'origin',
      `expected a serialised origin such as 'https://example.test', got ${JSON.stringify(origin)}`,
    )
  }
  return origin
}

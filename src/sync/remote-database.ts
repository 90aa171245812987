import { SyncServerError } from '../core/errors.ts'
import { Pouch, type PouchDatabase } from './pouch.ts'
import type { ResolvedSyncOptions } from './sync-options.ts'

/**
 * The server database through HTTP. `skip_setup`: PouchDB's lazy existence check, retried by
 * later calls while the server is down, rejects a promise nobody holds; the database is made
 * once by {@link ensureDatabase} instead.
 */
export function remoteDatabase(options: ResolvedSyncOptions, skipSetup: boolean): PouchDatabase {
  const db: PouchDatabase = new Pouch(options.url, {
    adapter: 'http',
    skip_setup: skipSetup,
    ...(options.auth ? { auth: options.auth } : {}),
  } as PouchDB.Configuration.RemoteDatabaseConfiguration)
  if (!skipSetup) return db
  // PouchDB 9's replicator reads the source's info() for its progress figures after each batch
  // without a catch: a server that dies just then is an unhandled rejection. Progress is all
  // that call feeds, and the replicator's next request fails and retries properly.
  const info = db.info.bind(db)
  db.info = (() =>
    info().catch(() => ({ db_name: '', doc_count: 0, update_seq: 0 }))) as typeof db.info
  return db
}

/** Creates the server database when missing (a first device, a server that allows it). */
export async function ensureDatabase(options: ResolvedSyncOptions): Promise<void> {
  const db = remoteDatabase(options, false)
  try {
    await db.info()
  } catch (error) {
    throw new SyncServerError(`could not reach or create ${options.url}`, { cause: error })
  }
}

import http from 'pouchdb-adapter-http'
import indexeddb from 'pouchdb-adapter-indexeddb'
import PouchDB from 'pouchdb-core'
import replication from 'pouchdb-replication'

/**
 * PouchDB as sync uses it: the HTTP adapter for the server, the replicator, and the IndexedDB
 * adapter for the local mirror of sealed documents. Node tests plug in `pouchdb-adapter-memory`
 * and pass their own mirror.
 */
export const Pouch: PouchDB.Static = PouchDB.plugin(http).plugin(replication).plugin(indexeddb)

/** A PouchDB database of sealed documents (the mirror, or the server through HTTP). */
export type PouchDatabase = PouchDB.Database<Record<string, unknown>>

/**
 * A CouchDB-protocol server on 127.0.0.1 for sync tests and the sync bench: PouchDB Server's
 * `express-pouchdb` over LevelDB files in `--dir`, so a test can SIGKILL the process and start
 * it again on the same data. Prints `ready <port>` once listening.
 *
 *   node --import tsx scripts/sync/couch-server.ts --dir /tmp/couch [--port 5984]
 */
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const require = createRequire(import.meta.url)
const { values } = parseArgs({
  options: { dir: { type: 'string' }, port: { type: 'string', default: '0' } },
})
if (!values.dir) throw new TypeError('--dir is required')
mkdirSync(values.dir, { recursive: true })

const PouchDB = require('pouchdb-core')
  .plugin(require('pouchdb-adapter-leveldb'))
  .plugin(require('pouchdb-adapter-http'))
  .plugin(require('pouchdb-mapreduce'))
  .plugin(require('pouchdb-replication'))
const Local = PouchDB.defaults({ prefix: `${join(values.dir, 'db')}-` })
// Mounted as the app itself: inside an express 5 app it fails (req.query is a getter there).
const app = require('express-pouchdb')(Local, { mode: 'minimumForPouchDB', inMemoryConfig: true })
const server = app.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`ready ${server.address().port}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))

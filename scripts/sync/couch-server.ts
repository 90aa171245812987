/**
 * A CouchDB-protocol server on 127.0.0.1 for sync tests, the sync bench and trying sync from
 * the app: PouchDB Server's `express-pouchdb` over LevelDB files in `--dir`, so a test can
 * SIGKILL the process and start it again on the same data. Prints `ready <port>` once
 * listening. `--cors <origin>` (repeatable) lets pages of that origin use it, as CouchDB's
 * `[cors]` section does: without it a browser refuses the app's requests.
 *
 *   node --import tsx scripts/sync/couch-server.ts --dir /tmp/couch [--port 5984] [--cors http://localhost:5173]
 */
import { mkdirSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const require = createRequire(import.meta.url)
const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string', default: '0' },
    cors: { type: 'string', multiple: true, default: [] },
  },
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
const origins = new Set(values.cors)
/** CouchDB's `[cors]` answer for an allowed origin: credentials, the methods and headers PouchDB uses. */
function withCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin
  if (!origin || !origins.has(origin)) return false
  res.setHeader('Access-Control-Allow-Origin', origin)
  res.setHeader('Access-Control-Allow-Credentials', 'true')
  res.setHeader('Access-Control-Expose-Headers', 'content-type, cache-control, etag')
  res.setHeader('Vary', 'Origin')
  if (req.method !== 'OPTIONS') return false
  res.setHeader('Access-Control-Allow-Methods', 'GET, PUT, POST, HEAD, DELETE')
  res.setHeader(
    'Access-Control-Allow-Headers',
    'accept, authorization, content-type, origin, referer',
  )
  res.writeHead(204).end()
  return true
}
const server = createServer((req, res) => {
  if (!withCors(req, res)) app(req, res)
})
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))

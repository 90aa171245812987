/**
 * A tiny static file server for the built app, used by the browser tests (which stop it to
 * go offline) and by hand: `npx tsx scripts/serve-static.ts [dist] [--port 4173]`.
 * Binds to 127.0.0.1 only. `/models/` is also served from `.models/` (generated test models).
 * No SPA fallback: an unknown path is a 404, as a real static host would answer.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'

export interface StaticServerOptions {
  /** Folder served at `/`. */
  root: string
  /** Extra folders by URL prefix, e.g. `{ '/models/': '.models' }`; tried before `root`. */
  mounts?: Record<string, string>
  /** @default 0 (any free port) */
  port?: number
  /** Sends files under `prefix` in `chunkBytes` pieces `delayMs` apart, so progress is visible. */
  slow?: { prefix: string; chunkBytes: number; delayMs: number }
}

export interface StaticServer {
  /** `http://127.0.0.1:PORT/` */
  url: string
  /** Every path requested, in order (tests assert on it). */
  requests: string[]
  /** Stops listening and drops open connections at once, like a network going away. */
  close(): Promise<void>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
}

export async function serveStatic(options: StaticServerOptions): Promise<StaticServer> {
  const root = resolve(options.root)
  const mounts = Object.entries(options.mounts ?? {}).map(
    ([prefix, dir]) => [prefix, resolve(dir)] as const,
  )
  const requests: string[] = []
  const sockets = new Set<Socket>()

  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    requests.push(path)
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end()
      return
    }
    const file = await locate(path, root, mounts)
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found')
      return
    }
    const name = file.path.slice(file.path.lastIndexOf(sep) + 1)
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file.path)] ?? 'application/octet-stream',
      'Content-Length': file.size,
      // The service worker and the page must be revalidated so updates are seen; hashed assets
      // may be cached by the browser too, the service worker caches them anyway.
      'Cache-Control':
        name === 'sw.js' || name.endsWith('.html') ? 'no-cache' : 'public, max-age=0',
    })
    if (req.method === 'HEAD') {
      res.end()
      return
    }
    const slow = options.slow
    if (slow && path.startsWith(slow.prefix)) {
      void trickle(file.path, res, slow.chunkBytes, slow.delayMs)
      return
    }
    createReadStream(file.path).pipe(res)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(options.port ?? 0, '127.0.0.1', done)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        for (const socket of sockets) socket.destroy()
      }),
  }
}

async function trickle(
  path: string,
  res: ServerResponse,
  chunkBytes: number,
  delayMs: number,
): Promise<void> {
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes })) {
      if (res.destroyed) return
      res.write(chunk)
      await new Promise((done) => setTimeout(done, delayMs))
    }
    res.end()
  } catch {
    res.destroy()
  }
}

async function locate(
  path: string,
  root: string,
  mounts: (readonly [string, string])[],
): Promise<{ path: string; size: number } | undefined> {
  const candidates: string[] = []
  for (const [prefix, dir] of mounts) {
    if (path.startsWith(prefix)) candidates.push(inside(dir, path.slice(prefix.length)))
  }
  candidates.push(inside(root, path.endsWith('/') ? `${path}index.html` : path))
  for (const candidate of candidates) {
    if (!candidate) continue
    const info = await stat(candidate).catch(() => undefined)
    if (info?.isFile()) return { path: candidate, size: info.size }
  }
  return undefined
}

/** `dir/rel`, or '' when `rel` would escape `dir`. */
function inside(dir: string, rel: string): string {
  const full = join(dir, normalize(`/${rel}`))
  return full === dir || full.startsWith(dir + sep) ? full : ''
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const portAt = args.indexOf('--port')
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 4173
  const root = args.find((a, i) => !a.startsWith('--') && i !== portAt + 1) ?? 'dist-app'
  const server = await serveStatic({ root, port, mounts: { '/models/': '.models' } })
  console.log(`serving ${root} at ${server.url}`)
}

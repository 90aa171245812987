import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of a real CouchDB-protocol server, which a
 * test can turn into one that refuses every request with CouchDB's own 401, as a server does
 * once the sync user's password has changed or its access was revoked.
 */
export class Gatekeeper {
  readonly #server: Server
  readonly #target: URL
  readonly #inFlight = new Set<IncomingMessage>()
  #refusing = false

  private constructor(target: string) {
    this.#target = new URL(target)
    this.#server = createServer((req, res) => {
      if (this.#refusing) {
        res.writeHead(401, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: 'unauthorized', reason: 'Name or password is incorrect.' }))
        return
      }
      const upstream = request(
        { host: this.#target.hostname, port: this.#target.port, path: req.url, method: req.method },
        (answer) => {
          this.#inFlight.add(answer)
          answer.once('close', () => this.#inFlight.delete(answer))
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      for (const [name, value] of Object.entries(req.headers)) {
        if (name !== 'host' && value !== undefined) upstream.setHeader(name, value)
      }
      upstream.once('error', () => res.destroy())
      req.pipe(upstream)
    })
  }

  /** Starts a gatekeeper for the server at `origin` (e.g. `http://127.0.0.1:5984`). */
  static async start(origin: string): Promise<Gatekeeper> {
    const gate = new Gatekeeper(origin)
    await new Promise<void>((resolve) => gate.#server.listen(0, '127.0.0.1', resolve))
    return gate
  }

  /** The URL of database `name` through this gatekeeper. */
  url(name: string): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/${name}`
  }

  /** From now on every request gets a 401; long polls in flight are cut so they come back. */
  refuse(): void {
    this.#refusing = true
    for (const answer of this.#inFlight) answer.destroy()
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise((resolve) => this.#server.close(resolve))
  }
}

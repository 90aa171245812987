import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ENTRY = fileURLToPath(new URL('../../scripts/sync/couch-server.ts', import.meta.url))

/**
 * A real CouchDB-protocol server (express-pouchdb over LevelDB) in a child process on
 * 127.0.0.1, which a test can kill with SIGKILL and start again on the same data and port.
 */
export class CouchServer {
  readonly dir: string
  #child: ChildProcess | undefined
  #port = 0

  private constructor(dir: string) {
    this.dir = dir
  }

  static async start(): Promise<CouchServer> {
    const server = new CouchServer(mkdtempSync(join(tmpdir(), 'engram-couch-')))
    await server.restart()
    return server
  }

  /** The URL of database `name` on this server. */
  url(name: string): string {
    return `http://127.0.0.1:${this.#port}/${name}`
  }

  /** Starts the process (again, on the same port and data after a kill). */
  async restart(): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', ENTRY, '--dir', this.dir, '--port', String(this.#port)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    this.#child = child
    let stderr = ''
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
    })
    this.#port = await new Promise<number>((resolve, reject) => {
      let out = ''
      child.stdout!.on('data', (chunk) => {
        out += chunk
        const ready = /ready (\d+)/.exec(out)
        if (ready) resolve(Number(ready[1]))
      })
      child.once('exit', (code) => reject(new Error(`couch server exited (${code}): ${stderr}`)))
    })
  }

  /** SIGKILL: no shutdown, no flush; LevelDB must recover on restart. */
  async kill(): Promise<void> {
    const child = this.#child
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }

  /** Every leaf revision of every document of database `name`, bodies included. */
  async leaves(name: string): Promise<Record<string, unknown>[]> {
    // The changes feed, unlike _all_docs, lists deleted documents too.
    const feed = (await (await fetch(`${this.url(name)}/_changes`)).json()) as {
      results: { id: string }[]
    }
    const out: Record<string, unknown>[] = []
    for (const { id } of feed.results) {
      const res = await fetch(`${this.url(name)}/${encodeURIComponent(id)}?open_revs=all`, {
        headers: { accept: 'application/json' },
      })
      for (const leaf of (await res.json()) as { ok?: Record<string, unknown> }[]) {
        if (leaf.ok) out.push(leaf.ok)
      }
    }
    return out
  }

  /**
   * Acts as the server itself would, straight on its HTTP API: reads a document (a revision of
   * it with `rev`), writes one (a `_rev` makes it a new revision of that one), deletes one.
   */
  async getDoc(name: string, id: string, rev?: string): Promise<Record<string, unknown>> {
    const query = rev ? `?rev=${encodeURIComponent(rev)}` : ''
    const res = await fetch(`${this.url(name)}/${encodeURIComponent(id)}${query}`)
    if (!res.ok) throw new Error(`GET ${id}: ${res.status}`)
    return (await res.json()) as Record<string, unknown>
  }

  async putDoc(name: string, doc: Record<string, unknown>): Promise<string> {
    const res = await fetch(`${this.url(name)}/${encodeURIComponent(String(doc._id))}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(doc),
    })
    if (!res.ok) throw new Error(`PUT ${doc._id}: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { rev: string }).rev
  }

  async deleteDoc(name: string, id: string, rev: string): Promise<void> {
    const url = `${this.url(name)}/${encodeURIComponent(id)}?rev=${encodeURIComponent(rev)}`
    const res = await fetch(url, { method: 'DELETE' })
    if (!res.ok) throw new Error(`DELETE ${id}: ${res.status}`)
  }

  async close(): Promise<void> {
    await this.kill()
    rmSync(this.dir, { recursive: true, force: true })
  }
}

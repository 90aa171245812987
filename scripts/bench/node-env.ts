/**
 * The Node side: fake-indexeddb (a fresh factory per store size, so each size starts empty and
 * its memory is freed after), PGlite on the Node file system under the OS temp folder, and gc
 * through V8's flag so heap figures are after collection.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite/vector'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { SuiteEnv } from './suite.ts'

export const ROOT = join(import.meta.dirname, '..', '..')
export const BENCH_DIR = join(ROOT, '.bench')
const PGLITE_VERSION = '0.4.6'
const TEMPLATE = join(BENCH_DIR, `pglite-${PGLITE_VERSION}-vector.tar`)
const PGLITE_DIR = join(tmpdir(), `engram-bench-pglite-${process.pid}`)

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/**
 * An empty PGlite data directory with pgvector created, made once (initdb in WebAssembly takes
 * 10–20 s) and kept in `.bench/`; every store starts from a copy.
 */
export async function pgliteTemplate(): Promise<Blob> {
  const cached = await readFile(TEMPLATE).catch(() => undefined)
  if (cached) return new Blob([new Uint8Array(cached)])
  const db = await PGlite.create({ extensions: { vector } })
  await db.exec('CREATE EXTENSION IF NOT EXISTS vector')
  const dump = await db.dumpDataDir('none')
  await db.close()
  await mkdir(BENCH_DIR, { recursive: true })
  await writeFile(TEMPLATE, new Uint8Array(await dump.arrayBuffer()))
  return dump
}

async function directoryBytes(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined)
  if (!info) return 0
  if (!info.isDirectory()) return info.size
  let total = 0
  for (const name of await readdir(path)) total += await directoryBytes(join(path, name))
  return total
}

/** A Node environment whose IndexedDB is a fresh fake-indexeddb factory. */
export async function nodeEnv(log: (line: string) => void): Promise<SuiteEnv> {
  const template = await pgliteTemplate()
  return {
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    async openPGlite(name, fresh) {
      const dir = join(PGLITE_DIR, name)
      if (fresh) {
        await rm(dir, { recursive: true, force: true })
        await mkdir(PGLITE_DIR, { recursive: true })
        return PGlite.create(dir, { extensions: { vector }, loadDataDir: template })
      }
      return PGlite.create(dir, { extensions: { vector } })
    },
    pgliteBytes: (name) => directoryBytes(join(PGLITE_DIR, name)),
    async dropPGlite(name) {
      await rm(join(PGLITE_DIR, name), { recursive: true, force: true })
    },
    async gc() {
      collect()
      await new Promise((resolve) => setTimeout(resolve, 10))
      collect()
    },
    async heapBytes() {
      const { heapUsed, external } = process.memoryUsage()
      return heapUsed + external
    },
    log,
  }
}

export async function cleanUpNode(): Promise<void> {
  await rm(PGLITE_DIR, { recursive: true, force: true })
}

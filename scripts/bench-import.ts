/**
 * `importFrom` on a generated ChatGPT export, in Node: MB/s and heap growth. The export is
 * written once, seeded, to a temp file (`--file` to choose it) and read back as a `Blob`
 * (`fs.openAsBlob`), so the importer streams it as a browser streams a `File`.
 *
 *   node --expose-gc --import tsx scripts/bench-import.ts [--mb 50] [--seed 29] [--mode read|engine]
 *
 * `--mode read` runs the importer against a memory that stores nothing (reading, tree walking,
 * page text, chunking and the JSONL lines: the importer's own cost and heap); `--mode engine`
 * (the default) imports into a real `MemoryEngine` over fake-indexeddb with the n-gram embedder,
 * so the figure includes the poison screen, embedding every chunk, one transaction per page and
 * the indexes — and the heap then also holds what the engine keeps of every page (catalogue,
 * keyword index, vectors). Heap growth is the peak `heapUsed` sampled at each progress event,
 * less the heap before the import (after a GC when `--expose-gc` is given). Besides MB/s by the
 * wall clock it prints MB per CPU-second (the process's user + system time), the figure that
 * still compares on a machine other processes load. With `--expose-gc`
 * an engine run then says what stays after a GC: with the engine open, and after its close
 * (fake-indexeddb's tables alone, which a browser keeps outside the heap).
 */
import { existsSync, openAsBlob, statSync } from 'node:fs'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { ImportOptions, ImportReport, MemoryApi } from '../src/core/types.ts'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../src/engine/memory-engine.ts'
import { importFrom } from '../src/import/index.ts'
import { exportPath, generateChatgptExport } from './bench-import-data.ts'

const argv = process.argv.slice(2)
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1]! : fallback
}
const mb = Number(arg('mb', '50'))
const seed = Number(arg('seed', '29'))
const mode = arg('mode', 'engine')
const file = arg('file', exportPath(mb, seed))

/** A memory that stores nothing: the importer's own cost. Only what `importFrom` calls. */
function nullMemory(): MemoryApi {
  const memory: Partial<MemoryApi> = {
    pages: { get: async () => undefined, forget: async () => {} } as unknown as MemoryApi['pages'],
    transfer: {
      import: async (jsonl: string, _?: ImportOptions): Promise<ImportReport> => {
        const lines = jsonl.split('\n').length
        return { lines, created: lines, duplicates: 0, flagged: 0 }
      },
    } as unknown as MemoryApi['transfer'],
  }
  return memory as MemoryApi
}

/** Kept past the engine's close, so the heap it holds (the stored rows) can be told apart. */
const indexedDB = new IDBFactory()

async function openEngine(): Promise<MemoryEngine> {
  return MemoryEngine.open({
    name: 'bench-import',
    indexedDB,
    IDBKeyRange,
    // A benchmark measures its own operations: no review in its quiet spells.
    autoReview: false,
    embedder: new NgramEmbedder(),
  })
}

async function main(): Promise<void> {
  if (!existsSync(file)) {
    const t = performance.now()
    generateChatgptExport(file, mb * 1024 * 1024, seed)
    console.log(`generated ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s`)
  }
  const size = statSync(file).size
  let memory: MemoryApi | undefined = mode === 'read' ? nullMemory() : await openEngine()
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const base = process.memoryUsage().heapUsed
  let peak = base
  let nextLine = size / 10
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const report = await importFrom(memory, await openAsBlob(file), {
    format: 'chatgpt',
    onProgress: (p) => {
      const used = process.memoryUsage().heapUsed
      if (used > peak) peak = used
      // A line per tenth of the file, so a run cut short still leaves its figures.
      if (p.bytes >= nextLine) {
        nextLine += size / 10
        const s = (performance.now() - started) / 1000
        console.log(
          `  ${(p.bytes / 1e6).toFixed(1)} MB, ${p.read} conversations in ${s.toFixed(1)} s = ${(p.bytes / 1e6 / s).toFixed(2)} MB/s; heap +${((used - base) / 1e6).toFixed(0)} MB`,
        )
      }
    },
  })
  const seconds = (performance.now() - started) / 1000
  // CPU seconds (all the process's threads, GC's included): on a loaded machine the wall clock
  // measures the other processes too, and MB per CPU-second is the figure that compares.
  const cpu = process.cpuUsage(cpuBefore)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  const { done, ...rest } = report
  console.log(JSON.stringify({ ...rest, done: done.length, skipped: report.skipped.length }))
  console.log(
    `${mode}: ${(size / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s = ${(size / 1e6 / seconds).toFixed(2)} MB/s; ` +
      `${cpuSeconds.toFixed(1)} CPU-s = ${(size / 1e6 / cpuSeconds).toFixed(2)} MB per CPU-second; ` +
      `heap growth (peak) ${((peak - base) / 1e6).toFixed(0)} MB; ${report.read} conversations, ${report.chunks} chunks; ` +
      `gc ${gc ? 'on' : 'off'}; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
  )
  if (mode === 'read') return
  if (!gc) {
    await memory.close()
    return
  }
  // What stays after the import: the engine's catalogue, keyword and vector indexes, and
  // fake-indexeddb's tables (in a browser those live outside the heap).
  gc()
  const open = process.memoryUsage().heapUsed - base
  await memory.close()
  memory = undefined
  gc()
  const stored = process.memoryUsage().heapUsed - base
  console.log(
    `retained after GC: ${(open / 1e6).toFixed(0)} MB with the engine open (its indexes and ` +
      `fake-indexeddb's tables); ${(stored / 1e6).toFixed(0)} MB after its close (fake-indexeddb's ` +
      `tables alone, with the snapshot the close saves)`,
  )
}

await main()

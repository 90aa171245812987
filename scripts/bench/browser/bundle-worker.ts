import { rm } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { build } from 'vite'

/**
 * Bundles one worker entry and everything it imports into `outDir` (emptied first) as the ES
 * module `fileName`, unminified so profiles keep their names, with Vite's build API: the
 * benchmarks' Chromium workers. Assets (PGlite's wasm and data) stay files.
 */
export async function bundleWorker(entry: string, outDir: string, fileName: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true })
  await build({
    configFile: false,
    root: dirname(entry),
    logLevel: 'error',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      assetsInlineLimit: 0,
      reportCompressedSize: false,
      lib: { entry: `./${basename(entry)}`, formats: ['es'], fileName: () => fileName },
    },
  })
}

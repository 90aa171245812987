import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, resolve } from 'node:path'
import type { Connect, Plugin } from 'vite'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

const root = import.meta.dirname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

/**
 * The ONNX Runtime files transformers.js loads (its WebGPU build uses the asyncify variant).
 * They are copied into the build at `/ort/` and handed to the embedder as `wasmPaths`, so the
 * app never asks a CDN for them and the service worker can precache them.
 */
const ORT_DIR = join(root, 'node_modules/onnxruntime-web/dist')
const ORT_FILES = ['ort-wasm-simd-threaded.asyncify.wasm', 'ort-wasm-simd-threaded.asyncify.mjs']

function onnxRuntimeFiles(): Plugin {
  return {
    name: 'engram:onnxruntime-files',
    configureServer(server) {
      server.middlewares.use(serveDir('/ort/', ORT_DIR, ORT_FILES))
    },
    configurePreviewServer(server) {
      server.middlewares.use(serveDir('/ort/', ORT_DIR, ORT_FILES))
    },
    generateBundle() {
      for (const file of ORT_FILES) {
        this.emitFile({
          type: 'asset',
          fileName: `ort/${file}`,
          source: readFileSync(join(ORT_DIR, file)),
        })
      }
    },
  }
}

/**
 * ORT's bundle names its wasm with `new URL(…, import.meta.url)`, which Vite would copy into
 * assets/ a second time (27 MB, precached twice). That fallback (used only without `wasmPaths`)
 * is pointed at the copy in /ort/ instead. Applies to the worker bundle, where ORT lives.
 */
function onnxRuntimeWasmUrl(base: string): Plugin {
  const wasmUrl = /new URL\("(ort-wasm-simd-threaded[\w.]*\.wasm)",import\.meta\.url\)/g
  return {
    name: 'engram:onnxruntime-wasm-url',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('onnxruntime-web') || !code.includes('ort-wasm-simd-threaded')) return null
      return code.replace(
        wasmUrl,
        (_, file: string) => `new URL(${JSON.stringify(`${base}ort/${file}`)},self.location.href)`,
      )
    },
  }
}

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

export default defineConfig({
  // 'mpa': no index.html fallback for unknown paths, so a model that is not self-hosted is a
  // 404 (and transformers.js falls back to the hub) instead of HTML parsed as JSON.
  appType: 'mpa',
  define: {
    __ENGRAM_VERSION__: JSON.stringify(pkg.version),
  },
  build: {
    target: 'es2022',
    // ort's wasm is 27 MB on purpose; the warning would only be noise.
    chunkSizeWarningLimit: 2048,
  },
  worker: {
    format: 'es',
    plugins: () => [onnxRuntimeWasmUrl('/')],
  },
  plugins: [
    onnxRuntimeFiles(),
    generatedModels(),
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
        // Self-hosted models are runtime-cached below, not precached with the shell.
        globIgnores: ['models/**'],
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/models\//, /^\/ort\//],
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
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

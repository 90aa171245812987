/**
 * Builds what the cross-origin test serves: the app with `connect.html` as a second input (the
 * repo's own Vite config, keyword-only so no model is needed), and two fixture pages of another
 * origin and of the host's: an embedder calling `embedMemory`, and the "Connected sites" panel
 * over the host's allow-list. Each into a folder of its own inside node_modules/.cache.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build } from 'vite'
import { buildFixturePages, fixturePage, freshCacheDir } from './fixture-pages.ts'
import { ROOT } from './harness.ts'

const EMBEDDER = `
import { embedMemory } from '${join(ROOT, 'src/client/embed-memory.ts')}'
import { AccessDeniedError } from '${join(ROOT, 'src/core/errors.ts')}'

/** Runs a call and returns its value, or the error as the test inspects it. */
async function attempt(task) {
  try {
    return { ok: true, value: await task() }
  } catch (error) {
    return {
      ok: false,
      name: error?.name,
      code: error?.code,
      origin: error?.origin,
      message: String(error?.message),
      typed: error instanceof AccessDeniedError,
    }
  }
}

/** The connection as the test inspects it, and every path report the app heard. */
async function connectVia(host, via) {
  const heard = []
  const result = await attempt(async () => {
    const memory = await embedMemory({ host, via, onPath: (report) => heard.push(report) })
    globalThis.memory = memory
    return { namespace: memory.namespace, namespaces: memory.namespaces, path: memory.path }
  })
  return { ...result, heard }
}

// The app's own button: a window may be opened only from the user's click, before any await.
const button = document.createElement('button')
button.id = 'connect-window'
button.textContent = 'Connect my memory'
button.addEventListener('click', () => {
  globalThis.windowConnection = undefined
  void connectVia(button.dataset.host, 'window').then((result) => {
    globalThis.windowConnection = result
  })
})
document.body.append(button)

Object.assign(globalThis, {
  engramTest: {
    attempt,
    connectVia,
    async connect(host) {
      return attempt(async () => {
        const memory = await embedMemory({ host })
        globalThis.memory = memory
        return { namespace: memory.namespace, namespaces: memory.namespaces }
      })
    },
  },
})
document.body.dataset.ready = 'true'
`

const SITES = `
import { SiteGrants } from '${join(ROOT, 'src/connect/index.ts')}'
import { mountConnectedSitesPanel } from '${join(ROOT, 'src/app/connected-sites-panel.ts')}'

const grants = SiteGrants.open()
const panel = mountConnectedSitesPanel(grants, new URL(location.href).searchParams.get('memory') ?? 'engram-app')
Object.assign(globalThis, { engramTest: { grants, panel } })
document.body.dataset.ready = 'true'
`

export interface CrossOriginBuild {
  /** The folder holding both, to remove afterwards. */
  dir: string
  /** The app: index.html, connect.html and their assets. */
  app: string
  /** embedder.html and sites.html. */
  fixtures: string
}

/** Builds the app and the fixture pages; returns the folders to serve. */
export async function buildCrossOrigin(): Promise<CrossOriginBuild> {
  const dir = await freshCacheDir('cross-origin')
  const fixturesSrc = join(dir, 'fixtures-src')
  await mkdir(fixturesSrc, { recursive: true })
  await writeFile(join(fixturesSrc, 'embedder.ts'), EMBEDDER)
  await writeFile(
    join(fixturesSrc, 'embedder.html'),
    fixturePage('Another origin', '', 'embedder.ts'),
  )
  await writeFile(join(fixturesSrc, 'sites.ts'), SITES)
  await writeFile(
    join(fixturesSrc, 'sites.html'),
    fixturePage('Connected sites', '<section id="sites-panel"></section>', 'sites.ts'),
  )

  const app = join(dir, 'app')
  // The host page takes its model from the build (its own query string is not trusted).
  const model = process.env.VITE_ENGRAM_MODEL
  process.env.VITE_ENGRAM_MODEL = 'none'
  try {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      root: ROOT,
      logLevel: 'warn',
      mode: 'production',
      build: {
        outDir: app,
        emptyOutDir: true,
        minify: false,
        rollupOptions: {
          input: { main: join(ROOT, 'index.html'), connect: join(ROOT, 'connect.html') },
        },
      },
    })
  } finally {
    if (model === undefined) delete process.env.VITE_ENGRAM_MODEL
    else process.env.VITE_ENGRAM_MODEL = model
  }

  const fixtures = join(dir, 'fixtures')
  await buildFixturePages(fixturesSrc, fixtures, {
    // Relative asset URLs: the host serves these pages under /fixtures/, the other origins at /.
    base: './',
    input: {
      embedder: join(fixturesSrc, 'embedder.html'),
      sites: join(fixturesSrc, 'sites.html'),
    },
  })
  return { dir, app, fixtures }
}

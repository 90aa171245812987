/**
 * What the harnesses that bundle test pages of their own share: a fresh folder for them inside
 * node_modules/.cache (so bare imports resolve from the project), the HTML around one module
 * entry, and Vite's `build` API with the options such a page needs.
 */
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { build, type InlineConfig } from 'vite'
import { ROOT } from './harness.ts'

/** An empty folder `engram-<label>-<pid>` in node_modules/.cache; a leftover one is removed. */
export async function freshCacheDir(label: string): Promise<string> {
  const dir = join(ROOT, 'node_modules', '.cache', `engram-${label}-${process.pid}`)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  return dir
}

/** A page that holds `body` and loads the module `entry` beside it. */
export function fixturePage(title: string, body: string, entry: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>${title}</title></head>
  <body>
    ${body}
    <script type="module" src="./${entry}"></script>
  </body>
</html>
`
}

/**
 * Bundles the pages in `root` (its index.html, or `input`) into `outDir`, without the repo's
 * Vite config: unminified ES2022, so a failing test's stack is readable. `extra` adds options.
 */
export async function buildFixturePages(
  root: string,
  outDir: string,
  extra: { input?: Record<string, string> } & Pick<
    InlineConfig,
    'base' | 'plugins' | 'worker'
  > = {},
): Promise<void> {
  const { input, ...config } = extra
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    ...config,
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      ...(input ? { rollupOptions: { input } } : {}),
    },
  })
}

/**
 * docs/architecture.md is the map of src/: every module path it names must exist, and every
 * folder under src/ must be named in it, so a move or a new folder fails here until the map
 * follows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const MAP = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
/** Paths the map writes from the repo root (and dotfiles); every other path is relative to src/. */
const FROM_ROOT = /^(?:\.|(?:src|test|scripts|docs|examples)\/)/

/**
 * The repo paths in backticks: a module (`.ts`, `.cjs`, `.md`) or a folder (a trailing `/`), with
 * at least one `/` or a leading dot. Package subpaths (`engram/connect`) are not paths.
 */
function namedPaths(markdown: string): string[] {
  const paths = new Set<string>()
  for (const [, token] of markdown.matchAll(/`([^`\s]+)`/g)) {
    if (token!.startsWith('engram/')) continue
    const isModule = /^[\w.][\w./-]*\.(?:ts|cjs|md)$/.test(token!) && /[/]|^\./.test(token!)
    const isFolder = /^[\w][\w./-]*\/$/.test(token!)
    if (isModule || isFolder) paths.add(FROM_ROOT.test(token!) ? token! : `src/${token}`)
  }
  return [...paths].sort()
}

/** Every folder below src/, as `src/a/b/`. */
function srcFolders(dir = 'src'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [`${dir}/${entry.name}/`, ...srcFolders(`${dir}/${entry.name}`)])
}

const missing = (paths: readonly string[]) => paths.filter((p) => !existsSync(join(ROOT, p)))

describe('the architecture map', () => {
  it('reads module and folder paths, relative to src/ unless they start at the root', () => {
    const named = namedPaths(
      'in `engine/recall/index.ts` and `core/poison/`, tested in `test/unit/docs/`; ' +
        '`.dependency-cruiser.cjs`, not `engram/connect`, `runRecall` or `memory.pages.*`',
    )
    expect(named).toEqual([
      '.dependency-cruiser.cjs',
      'src/core/poison/',
      'src/engine/recall/index.ts',
      'test/unit/docs/',
    ])
  })

  it('reports a path that does not exist', () => {
    expect(missing(namedPaths('`engine/recall/no-such-stage.ts` and `core/nowhere/`'))).toEqual([
      'src/core/nowhere/',
      'src/engine/recall/no-such-stage.ts',
    ])
  })

  it('names only modules and folders that exist', () => {
    const named = namedPaths(MAP)
    expect(named.length).toBeGreaterThan(100)
    expect(missing(named)).toEqual([])
  })

  it('names every folder under src/', () => {
    const named = new Set(namedPaths(MAP))
    const folders = srcFolders()
    expect(folders).toContain('src/engine/recall/')
    expect(folders.filter((folder) => !named.has(folder))).toEqual([])
  })
})

/**
 * Docs as tests: every ```ts / ```js block in README.md and docs/*.md type-checks against the
 * package's entry points, and every block tagged `node` runs in Node and prints what its
 * `// =>` lines say. The fence tags are documented in scripts/docs/code-blocks.ts.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  blockFileName,
  type CodeBlock,
  extractBlocks,
  instrument,
} from '../../../scripts/docs/code-blocks.ts'
import { mismatch, parseExpected } from '../../../scripts/docs/expected-value.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const SCRATCH = join(ROOT, '.scratch/docs-blocks')
const PRELUDE = fileURLToPath(new URL('./prelude.d.ts', import.meta.url))

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]
const BLOCKS = DOCS.flatMap((doc) => extractBlocks(doc, undefined, ROOT))
const CHECKED = BLOCKS.filter((b) => !b.tags.includes('no-check'))
const RUN = CHECKED.filter((b) => b.tags.includes('node'))

/** `README-120.ts(3,5): error TS2304: …` → `README.md:122:5 TS2304 …`. */
function docErrors(output: string, byFile: Map<string, CodeBlock>): string[] {
  const errors: string[] = []
  for (const m of output.matchAll(/^(\S+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/gm)) {
    const block = byFile.get(m[1]!.split('/').pop()!)
    const where = block ? `${block.doc}:${block.line + Number(m[2]) - 1}:${m[3]}` : m[1]
    errors.push(`${where} ${m[4]} ${m[5]}`)
  }
  if (errors.length === 0 && /error/i.test(output)) errors.push(output.trim())
  return errors
}

let checked: string[] | undefined

/** Type-checks every block once (one `tsc` run); the errors, as `doc:line:column TSxxxx text`. */
function typeErrors(): string[] {
  if (checked) return checked
  const dir = join(SCRATCH, 'check')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const byFile = new Map<string, CodeBlock>()
  for (const block of CHECKED) {
    const name = blockFileName(block)
    byFile.set(name, block)
    // A module: top-level await, and names that do not collide across blocks.
    writeFileSync(join(dir, name), `${block.code}\nexport {}\n`)
  }
  const tsconfig = {
    extends: relative(dir, join(ROOT, 'tsconfig.json')),
    compilerOptions: { allowJs: true, checkJs: true, noEmit: true },
    // The repo's ambient module declarations (src/**/*.d.ts) and the docs' prelude.
    include: ['*.ts', '*.js', relative(dir, PRELUDE), relative(dir, join(ROOT, 'src/**/*.d.ts'))],
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
  const tsc = spawnSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir, '--pretty', 'false'], {
    encoding: 'utf8',
  })
  checked = docErrors(`${tsc.stdout}${tsc.stderr}`, byFile)
  return checked
}

describe('the code blocks of README.md and docs/', () => {
  it('finds blocks to check in the README and the docs', () => {
    expect(CHECKED.some((b) => b.doc === 'README.md')).toBe(true)
    expect(RUN.length).toBeGreaterThan(0)
  })

  for (const doc of DOCS.filter((d) => CHECKED.some((b) => b.doc === d))) {
    it(`${doc}: every ts/js block type-checks`, { timeout: 120_000 }, () => {
      expect(typeErrors().filter((e) => e.startsWith(`${doc}:`))).toEqual([])
    })
  }

  it('leaves no type error outside the blocks (the prelude, the harness)', {
    timeout: 120_000,
  }, () => {
    expect(typeErrors().filter((e) => !DOCS.some((doc) => e.startsWith(`${doc}:`)))).toEqual([])
  })

  for (const block of RUN) {
    it(`${block.doc}:${block.line} runs and prints what its // => lines say`, async () => {
      const { code, expectations } = instrument(block)
      const shown = new Map<number, { value?: unknown; threw?: unknown }>()
      const g = globalThis as Record<string, unknown>
      g.__docShow = (id: number, value: unknown) => {
        shown.set(id, { value })
        return value
      }
      g.__docThrows = async (id: number, run: () => Promise<unknown>) => {
        try {
          await run()
          shown.set(id, {})
        } catch (threw) {
          shown.set(id, { threw })
        }
      }
      const dir = join(SCRATCH, 'run')
      mkdirSync(dir, { recursive: true })
      const file = join(dir, blockFileName(block))
      writeFileSync(
        file,
        `declare function __docShow<T>(id: number, value: T): T\n` +
          `declare function __docThrows(id: number, run: () => Promise<unknown>): Promise<void>\n` +
          `${code}\nexport {}\n`,
      )
      await import(/* @vite-ignore */ pathToFileURL(file).href)
      const failures: string[] = []
      for (const { id, line, expected } of expectations) {
        const where = `${block.doc}:${line}`
        const result = shown.get(id)
        if (!result) {
          failures.push(`${where}: the statement before // => ${expected} never ran`)
          continue
        }
        const throws = /^throws (\w+)\s*(.*)$/.exec(expected)
        if (throws) {
          const error = result.threw as { name?: string } | undefined
          if (error?.name !== throws[1]) {
            failures.push(`${where}: expected it to throw ${throws[1]}, got ${String(error)}`)
            continue
          }
          const fields = parseExpected(throws[2]!)
          const why = fields && mismatch(error, fields.value)
          if (why) failures.push(`${where}: ${why}`)
          continue
        }
        if ('threw' in result) {
          failures.push(`${where}: threw ${String(result.threw)}`)
          continue
        }
        const promise = parseExpected(expected)
        // Prose (no literal at the start) is read by people, not compared.
        const why = promise && mismatch(result.value, promise.value)
        if (why) failures.push(`${where}: ${why}`)
      }
      expect(failures).toEqual([])
    })
  }
})

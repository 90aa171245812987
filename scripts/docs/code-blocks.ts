/**
 * The code blocks of README.md and docs/*.md, as tests see them: every ```ts / ```js block is
 * type-checked against the package's entry points (the repo's `tsconfig.json` paths), and blocks
 * tagged `node` are run in Node with each `// =>` compared to what the line before it printed.
 *
 * Fence tags (the words after the language):
 * - ```ts          type-checked as a module. Names it uses without defining (`memory`,
 *                  `passphrase`…) come from `test/integration/docs/prelude.d.ts`.
 * - ```ts node     also run in Node; every `// => value` is compared with the value of the
 *                  statement it ends (or follows). A value is a JS literal: `…` stands for
 *                  anything (a whole value, or any text inside a string), ULIDs match any ULID,
 *                  decimals match to the places written, and words after the literal are prose.
 *                  `// => throws Name { field: value }` expects the statement to throw.
 * - ```ts no-check illustrative only (a shape, pseudo-code): neither compiled nor run.
 */

import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One fenced block. */
export interface CodeBlock {
  /** Repo-relative path of the Markdown file. */
  doc: string
  /** 1-based line of the first code line (the line after the fence). */
  line: number
  lang: 'ts' | 'js'
  tags: string[]
  code: string
}

const FENCE = /^```(\w+)?(.*)$/

/** Every ```ts / ```js (also `typescript`, `javascript`) block of a Markdown file, in order. */
export function extractBlocks(doc: string, markdown?: string, root = process.cwd()): CodeBlock[] {
  markdown ??= readFileSync(join(root, doc), 'utf8')
  const lines = markdown.split('\n')
  const blocks: CodeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l))
    const close = end < 0 ? lines.length : end
    const lang = normalLang(open[1])
    if (lang) {
      blocks.push({
        doc,
        line: i + 2,
        lang,
        tags: (open[2] ?? '').trim().split(/\s+/).filter(Boolean),
        code: lines.slice(i + 1, close).join('\n'),
      })
    }
    i = close
  }
  return blocks
}

function normalLang(lang: string | undefined): 'ts' | 'js' | undefined {
  if (lang === 'ts' || lang === 'typescript') return 'ts'
  if (lang === 'js' || lang === 'javascript') return 'js'
  return undefined
}

/** A file name for a block, unique within a run: `README-120.ts`. */
export function blockFileName(block: CodeBlock): string {
  const base = block.doc.replace(/\.md$/, '').replace(/[^\w]+/g, '-')
  return `${base}-${block.line}.${block.lang}`
}

/** A `// =>` the runner compares: the statement's 1-based line in the doc and the text expected. */
export interface Expectation {
  id: number
  line: number
  expected: string
}

/**
 * Rewrites a `node` block so that each statement a `// =>` belongs to reports its value:
 * `__docShow(id, value)`, or `__docThrows(id, () => …)` for `// => throws …`. A statement is
 * the code on the `// =>` line, or the lines since the last one starting at column 0.
 */
export function instrument(block: CodeBlock): { code: string; expectations: Expectation[] } {
  const lines = block.code.split('\n')
  const out = [...lines]
  const expectations: Expectation[] = []
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i]!.indexOf('// =>')
    if (at < 0) continue
    let expected = lines[i]!.slice(at + 5).trim()
    // Continuation lines: comments indented past the `//` of the arrow.
    for (let j = i + 1; j < lines.length && /^\s*\/\/\s{2,}/.test(lines[j]!); j++) {
      if (lines[j]!.includes('// =>')) break
      expected += ` ${lines[j]!.replace(/^\s*\/\//, '').trim()}`
    }
    const code = lines[i]!.slice(0, at).trimEnd()
    let first: number
    let last: number
    if (code.trim() !== '') {
      first = startOf(lines, i)
      last = i
      out[i] = code
    } else {
      last = i - 1
      while (last >= 0 && /^\s*(\/\/.*)?$/.test(out[last]!)) last--
      if (last < 0) continue
      first = startOf(lines, last)
    }
    const id = expectations.length
    expectations.push({ id, line: block.line + first, expected })
    wrap(out, first, last, id, expected.startsWith('throws'))
  }
  return { code: out.join('\n'), expectations }
}

/** The line where the statement ending on `line` starts: the nearest line at column 0. */
function startOf(lines: string[], line: number): number {
  let first = line
  while (first > 0 && /^[\s)\]}.]/.test(lines[first]!)) first--
  return first
}

function wrap(out: string[], first: number, last: number, id: number, throws: boolean): void {
  // A trailing `// note` would swallow the closing bracket; a leading `;` guards a line that
  // starts with `(`, and inside a call it would be a syntax error.
  for (const i of [first, last]) out[i] = out[i]!.replace(/\s+\/\/ [^'"`]*$/, '')
  out[first] = out[first]!.replace(/^;/, '')
  const declared = /^(?:const|let|var)\s+(\w+)\s*=/.exec(out[first]!)
  const end = (line: string) => line.replace(/;\s*$/, '')
  if (declared) {
    out[last] = `${end(out[last]!)}; __docShow(${id}, ${declared[1]})`
  } else if (throws) {
    out[first] = `await __docThrows(${id}, async () => { ${out[first]}`
    out[last] = `${end(out[last]!)} })`
  } else {
    out[first] = `__docShow(${id}, ${out[first]}`
    out[last] = `${end(out[last]!)})`
  }
}

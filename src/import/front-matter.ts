/**
 * Front matter: the `---` block at the top of a Markdown note (Obsidian, Jekyll, Hugo). Read as
 * the small YAML subset notes use — `key: value`, `key: [a, b]`, and `key:` followed by `- item`
 * lines — with quoted values read as JSON strings; nested maps and multi-line strings are read
 * as text. Written as the same subset, every string JSON-quoted (a JSON string is YAML), so what
 * `exportMarkdown` writes reads back as it was.
 */

export type FrontMatterValue = string | string[]
export type FrontMatter = Record<string, FrontMatterValue>

/** A note split into its front matter and the body after it. */
export interface SplitNote {
  data: FrontMatter
  body: string
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/
const CLOSE = /\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/

/**
 * @example
 * splitFrontMatter('---\ntags: [trip, lisbon]\n---\n# Lisbon\n')
 * // => { data: { tags: ['trip', 'lisbon'] }, body: '# Lisbon\n' }
 */
export function splitFrontMatter(text: string): SplitNote {
  const open = OPEN.exec(text)
  if (!open) return { data: {}, body: text }
  const rest = text.slice(open[0].length)
  const close = CLOSE.exec(`\n${rest}`)
  if (!close) return { data: {}, body: text }
  const block = rest.slice(0, Math.max(0, close.index - 1))
  return { data: parseBlock(block), body: rest.slice(close.index - 1 + close[0].length) }
}

function parseBlock(block: string): FrontMatter {
  const data: FrontMatter = {}
  let listKey: string | undefined
  for (const line of block.split(/\r?\n/)) {
    const item = /^\s*-\s+(.*)$/.exec(line)
    if (item && listKey !== undefined) {
      const held = data[listKey]
      data[listKey] = [...(Array.isArray(held) ? held : []), scalar(item[1]!)]
      continue
    }
    const pair = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line)
    if (!pair) continue
    const key = pair[1]!.toLowerCase()
    const value = pair[2]!.trim()
    listKey = value === '' ? key : undefined
    if (value === '') data[key] = []
    else if (value.startsWith('[') && value.endsWith(']')) data[key] = flowList(value.slice(1, -1))
    else data[key] = scalar(value)
  }
  return data
}

function flowList(inner: string): string[] {
  const out: string[] = []
  // Items are split at commas outside quotes: a quoted tag may hold one.
  for (const m of inner.matchAll(/\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,]+)\s*(?:,|$)/g)) {
    const v = scalar(m[1]!.trim())
    if (v !== '') out.push(v)
  }
  return out
}

function scalar(raw: string): string {
  const v = raw.trim()
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) {
    try {
      return String(JSON.parse(v))
    } catch {
      return v.slice(1, -1)
    }
  }
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2)
    return v.slice(1, -1).replace(/''/g, "'")
  return v.replace(/\s+#.*$/, '')
}

/**
 * The front matter block for `data`, keys in the order given; empty lists and undefined values
 * are left out.
 *
 * @example
 * writeFrontMatter({ id: 'note-1', tags: ['trip'] })
 * // => '---\nid: "note-1"\ntags: ["trip"]\n---\n'
 */
export function writeFrontMatter(
  data: Record<string, FrontMatterValue | number | undefined>,
): string {
  const lines = Object.entries(data).flatMap(([key, value]) => {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return []
    if (Array.isArray(value)) return [`${key}: [${value.map((v) => JSON.stringify(v)).join(', ')}]`]
    return [`${key}: ${typeof value === 'number' ? String(value) : JSON.stringify(value)}`]
  })
  return `---\n${lines.join('\n')}\n---\n`
}

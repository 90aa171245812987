/**
 * Keyword lists as prefix-tree regexes. A flat alternation of a few hundred words makes the regex
 * engine try every word at every position; the same words as a tree (`dis(?:regard|card)`) fail
 * after a character or two, which is what keeps a fact's keyword pass near a microsecond.
 */

interface Node {
  next: Map<string, Node>
  /** A term ends here as a prefix (anything may follow). */
  prefix: boolean
  /** A term ends here as a whole word (`\b` must follow). */
  whole: boolean
}

const node = (): Node => ({ next: new Map(), prefix: false, whole: false })
const SPECIAL = /[.*+?^${}()|[\]\\/]/

/**
 * A regex source matching any of `terms`, longest first. A term ending in `$` is a whole word;
 * spaces inside a term match any run of whitespace.
 */
export function trieSource(terms: readonly string[]): string {
  const root = node()
  for (const term of terms) {
    const whole = term.endsWith('$')
    const text = whole ? term.slice(0, -1) : term
    let at = root
    for (const ch of text.replace(/\s+/g, ' ')) {
      let child = at.next.get(ch)
      if (!child) {
        child = node()
        at.next.set(ch, child)
      }
      at = child
    }
    if (whole) at.whole = true
    else at.prefix = true
  }
  return emit(root)
}

function emit(at: Node): string {
  // A prefix end accepts anything after it, so longer terms below it add nothing.
  if (at.prefix) return ''
  const branches: string[] = []
  for (const [ch, child] of at.next) {
    const atom = ch === ' ' ? String.raw`\s+` : SPECIAL.test(ch) ? `\\${ch}` : ch
    branches.push(atom + emit(child))
  }
  if (at.whole) branches.push(String.raw`\b`)
  if (branches.length === 0) return ''
  if (branches.length === 1) return branches[0] as string
  return `(?:${branches.join('|')})`
}

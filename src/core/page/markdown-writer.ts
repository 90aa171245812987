/**
 * The output side of html-to-text.ts: Markdown-shaped text written block by block, with the
 * prefixes (`> `, list markers and their indentation) that each line inside a quote or a list
 * item carries.
 */

/**
 * Line prefixes written at most: deeper quotes and lists keep the outer ones and the innermost,
 * so a line's prefix stays short however deep the HTML nests (256 levels of `<ul><li>` wrote
 * 512 spaces before every line).
 */
export const MAX_WRITTEN_PREFIXES = 8

/** HTML's whitespace, plus the no-break space, which reads as a space in plain text. */
export const HTML_SPACE = /[ \t\n\r\f\u00A0]+/

/** The longest run of `char` in `text` (fences and code spans must be longer). */
export function longestRun(text: string, char: string): number {
  let longest = 0
  let run = 0
  for (const c of text) {
    run = c === char ? run + 1 : 0
    longest = Math.max(longest, run)
  }
  return longest
}

/**
 * Builds the text: collapses inline whitespace, turns block boundaries into line breaks, and
 * starts each line with the prefixes of the quotes and list items it is in.
 */
export class Writer {
  #out = ''
  #newlines = 0
  /** What a blank line of the pending breaks carries: the prefixes outside both its blocks. */
  #blank = ''
  #space = false
  #lineStart = true
  readonly #prefixes: { first: string; rest: string; used: boolean }[] = []

  /** List items the writer is inside. */
  get depth(): number {
    return this.#prefixes.filter((p) => p.first !== '> ').length
  }

  /** Wants at least `count` line breaks (2: a blank line) before whatever comes next. */
  block(count: number): void {
    if (count === 0 || this.#out === '') return
    if (this.#newlines === 0) this.#blank = this.#blankPrefix()
    this.#newlines = Math.max(this.#newlines, count)
    this.#space = false
  }

  lineBreak(): void {
    if (this.#out === '') return
    if (this.#newlines === 0) this.#blank = this.#blankPrefix()
    this.#newlines = Math.min(2, this.#newlines + 1)
    this.#space = false
  }

  push(first: string, rest: string): void {
    this.#prefixes.push({ first, rest, used: false })
  }

  pop(): void {
    this.#prefixes.pop()
    // A blank line after a quote must not carry its `>`, or what follows would continue it.
    if (this.#newlines > 0) this.#blank = this.#blankPrefix()
  }

  #blankPrefix(): string {
    return this.#written()
      .map((p) => p.rest)
      .join('')
      .trimEnd()
  }

  #written(): { first: string; rest: string; used: boolean }[] {
    const all = this.#prefixes
    if (all.length <= MAX_WRITTEN_PREFIXES) return all
    return [...all.slice(0, MAX_WRITTEN_PREFIXES - 1), all[all.length - 1]!]
  }

  text(text: string): void {
    const words = text.split(HTML_SPACE)
    for (let i = 0; i < words.length; i++) {
      if (i > 0) this.#space = true
      if (words[i] !== '') this.#write(words[i]!)
    }
  }

  code(text: string): void {
    if (text === '') return
    const ticks = '`'.repeat(longestRun(text, '`') + 1)
    const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : ''
    this.#write(`${ticks}${pad}${text}${pad}${ticks}`)
  }

  /** Lines written as they are (code, a table), each after the line prefixes. */
  verbatim(text: string): void {
    const lines = text.split('\n')
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) this.#newlines = Math.max(this.#newlines, 1)
      this.#write(lines[i]!)
    }
  }

  done(): string {
    return this.#out
  }

  #write(text: string): void {
    if (this.#newlines > 0 && this.#out !== '') {
      this.#out += '\n'
      for (let i = 1; i < this.#newlines; i++) this.#out += `${this.#blank}\n`
      this.#lineStart = true
    }
    this.#newlines = 0
    if (this.#lineStart) {
      this.#out += this.#written()
        .map((p) => (p.used ? p.rest : p.first))
        .join('')
      for (const prefix of this.#prefixes) prefix.used = true
      this.#lineStart = false
    } else if (this.#space) this.#out += ' '
    this.#space = false
    this.#out += text
  }
}

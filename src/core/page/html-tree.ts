/**
 * A small, forgiving HTML parser for text extraction in a worker, which has no `DOMParser`: a
 * tokeniser and a tree builder that knows void elements, raw-text elements, the common implied
 * end tags (`<p>`, `<li>`, table cells, options) and recovers from stray or missing end tags. It
 * never runs or fetches anything; it only builds a tree of tags, attributes and text.
 */

import { decodeEntities } from './html-entities.ts'

/** An element: lower-case tag, decoded attributes, children in order. */
export interface HtmlElement {
  tag: string
  attrs: Record<string, string>
  children: HtmlNode[]
}

/** A child: an element or a run of decoded text. */
export type HtmlNode = HtmlElement | string

/** Nesting deeper than this attaches children to the deepest element kept (no stack overflow). */
export const MAX_HTML_DEPTH = 256

/** The six heading elements, shared by the parser (they close a <p>) and the text walk. */
export const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
// Their content is text up to the matching end tag; title and textarea decode references.
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes'])
const ESCAPABLE_RAW_TEXT = new Set(['title', 'textarea'])
// Opening one of these closes an open <p>.
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  ...HEADING_TAGS,
  'header',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
])
// An open <p> is closed only up to these ("button scope" in the HTML standard).
const P_SCOPE = [
  'button',
  'table',
  'td',
  'th',
  'caption',
  'template',
  'object',
  'marquee',
  'applet',
]
// Opening the key closes an open element of the listed tags, up to the first of `scope`.
const IMPLIED_END: Readonly<Record<string, { closes: string[]; scope: string[] }>> = {
  li: { closes: ['li'], scope: ['ul', 'ol', 'menu'] },
  dt: { closes: ['dt', 'dd'], scope: ['dl'] },
  dd: { closes: ['dt', 'dd'], scope: ['dl'] },
  tr: { closes: ['tr', 'td', 'th'], scope: ['table', 'thead', 'tbody', 'tfoot'] },
  td: { closes: ['td', 'th'], scope: ['tr', 'table'] },
  th: { closes: ['td', 'th'], scope: ['tr', 'table'] },
  thead: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], scope: ['table'] },
  tbody: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], scope: ['table'] },
  tfoot: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], scope: ['table'] },
  option: { closes: ['option'], scope: ['select', 'datalist'] },
}

const TAG_NAME = /[A-Za-z][^\s/>]*/y
const ATTRIBUTE = /[\s/]*([^\s"'>/=][^\s"'>/=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/y

/**
 * Parses HTML into a tree under a `#root` element. Comments, doctypes and processing
 * instructions are skipped; `<script>`, `<style>` and the like keep their text unparsed.
 *
 * @example
 * parseHtml('<p>One<p>Two &amp; <b>three</b>').children
 * // => [{ tag: 'p', attrs: {}, children: ['One'] },
 * //     { tag: 'p', attrs: {},
 * //       children: ['Two & ', { tag: 'b', attrs: {}, children: ['three'] }] }]
 */
export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { tag: '#root', attrs: {}, children: [] }
  const stack = new OpenElements(root)
  const top = () => stack.top()
  let at = 0
  while (at < html.length) {
    const open = html.indexOf('<', at)
    const textEnd = open === -1 ? html.length : open
    if (textEnd > at) appendText(top(), decodeEntities(html.slice(at, textEnd)))
    if (open === -1) break
    at = open
    const next = html[at + 1]
    if (html.startsWith('<!--', at)) {
      const close = html.indexOf('-->', at + 4)
      at = close === -1 ? html.length : close + 3
    } else if (next === '!' || next === '?') {
      const close = html.indexOf('>', at)
      at = close === -1 ? html.length : close + 1
    } else if (next === '/' && /[A-Za-z]/.test(html[at + 2] ?? '')) {
      TAG_NAME.lastIndex = at + 2
      const name = TAG_NAME.exec(html)![0].toLowerCase()
      const close = html.indexOf('>', at)
      at = close === -1 ? html.length : close + 1
      closeElement(stack, name)
    } else if (next !== undefined && /[A-Za-z]/.test(next)) {
      at = openElement(html, at, stack)
    } else {
      appendText(top(), '<')
      at++
    }
  }
  return root
}

function appendText(parent: HtmlElement, text: string): void {
  const last = parent.children.length - 1
  if (typeof parent.children[last] === 'string') parent.children[last] += text
  else parent.children.push(text)
}

/**
 * The stack of open elements, with the depths each tag is open at, so that closing a tag or an
 * implied end asks only about the tags it names instead of walking the stack: with 256 open
 * `<div>`s each new element walked all of them (12 s for 2 MiB of `<div>`).
 */
class OpenElements {
  readonly #stack: HtmlElement[]
  readonly #depths = new Map<string, number[]>()

  constructor(root: HtmlElement) {
    this.#stack = [root]
  }

  get length(): number {
    return this.#stack.length
  }

  top(): HtmlElement {
    return this.#stack[this.#stack.length - 1]!
  }

  push(element: HtmlElement): void {
    const depths = this.#depths.get(element.tag)
    if (depths) depths.push(this.#stack.length)
    else this.#depths.set(element.tag, [this.#stack.length])
    this.#stack.push(element)
  }

  /** The depth of the innermost open element of any of `tags`, or 0 (the root) when none. */
  innermost(tags: readonly string[]): number {
    let deepest = 0
    for (const tag of tags) {
      const depths = this.#depths.get(tag)
      if (depths && depths.length > 0) deepest = Math.max(deepest, depths[depths.length - 1]!)
    }
    return deepest
  }

  /** Closes the element at `depth` and everything inside it. */
  popTo(depth: number): void {
    while (this.#stack.length > depth) this.#depths.get(this.#stack.pop()!.tag)!.pop()
  }
}

/** Reads a start tag at `at`, adds its element, and returns where parsing goes on. */
function openElement(html: string, at: number, stack: OpenElements): number {
  TAG_NAME.lastIndex = at + 1
  const tag = TAG_NAME.exec(html)![0].toLowerCase()
  let cursor = TAG_NAME.lastIndex
  const attrs: Record<string, string> = {}
  for (;;) {
    while (cursor < html.length && /[\s/]/.test(html[cursor]!)) cursor++
    if (cursor >= html.length || html[cursor] === '>') break
    ATTRIBUTE.lastIndex = cursor
    const match = ATTRIBUTE.exec(html)
    if (!match || match[0] === '') {
      cursor++
      continue
    }
    const name = match[1]!.toLowerCase()
    if (!Object.hasOwn(attrs, name))
      attrs[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '')
    cursor = ATTRIBUTE.lastIndex
  }
  const selfClosing = html[cursor - 1] === '/'
  cursor = Math.min(cursor + 1, html.length)
  closeImplied(stack, tag)
  const element: HtmlElement = { tag, attrs, children: [] }
  stack.top().children.push(element)
  if (RAW_TEXT.has(tag) || ESCAPABLE_RAW_TEXT.has(tag)) {
    const end = findEndTag(html, cursor, tag)
    const raw = html.slice(cursor, end)
    if (raw !== '') element.children.push(ESCAPABLE_RAW_TEXT.has(tag) ? decodeEntities(raw) : raw)
    const close = html.indexOf('>', end)
    return end >= html.length || close === -1 ? html.length : close + 1
  }
  if (!VOID.has(tag) && !selfClosing && stack.length < MAX_HTML_DEPTH) stack.push(element)
  return cursor
}

function findEndTag(html: string, from: number, tag: string): number {
  const end = new RegExp(`</${tag}(?=[\\s/>]|$)`, 'gi')
  end.lastIndex = from
  return end.exec(html)?.index ?? html.length
}

function closeImplied(stack: OpenElements, tag: string): void {
  if (CLOSES_P.has(tag)) popIfOpen(stack, ['p'], P_SCOPE)
  const rule = IMPLIED_END[tag]
  if (rule) popIfOpen(stack, rule.closes, rule.scope)
}

/** Pops to (and including) the innermost open element of `tags`, unless a `scope` comes first. */
function popIfOpen(stack: OpenElements, tags: readonly string[], scope: readonly string[]): void {
  const depth = stack.innermost(tags)
  if (depth > 0 && depth > stack.innermost(scope)) stack.popTo(depth)
}

/** An end tag closes the innermost open element of its name; a stray one is ignored. */
function closeElement(stack: OpenElements, tag: string): void {
  const depth = stack.innermost([tag])
  if (depth > 0) stack.popTo(depth)
}

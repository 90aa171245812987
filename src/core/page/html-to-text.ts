/**
 * HTML to the Markdown-shaped text pages are stored and chunked as: headings become `#` lines,
 * lists `- ` lines, `<pre>` fenced code, tables pipe tables, quotes `> ` lines, so the chunker
 * (chunk.ts) sees the structure. Pure: no DOM, so it runs in the worker.
 *
 * What is left out: `<head>`, navigation (`<nav>`: menus repeated on every page), scripts,
 * styles, templates, `<noscript>`, SVG and MathML, embedded frames and objects, form controls,
 * closed dialogs, and anything hidden from readers (`hidden`, `aria-hidden="true"`, inline
 * `display: none` or `visibility: hidden`), since text no reader can see is a classic carrier of
 * injected instructions.
 */

import { HEADING_TAGS, type HtmlElement, type HtmlNode, parseHtml } from './html-tree.ts'
import { HTML_SPACE, longestRun, Writer } from './markdown-writer.ts'

/** A page read from HTML. */
export interface HtmlPage {
  /** The `<title>`, else the first `<h1>`, whitespace collapsed; absent when neither has text. */
  title?: string
  /** The readable text, Markdown-shaped. */
  text: string
}

const DROPPED = new Set([
  'head',
  'nav',
  'script',
  'style',
  'template',
  'noscript',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'audio',
  'video',
  'select',
  'textarea',
  'input',
  'button',
  'title',
  'link',
  'meta',
  'base',
])
const PARAGRAPH = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'figure',
  'form',
  'fieldset',
  'details',
  'address',
  'dl',
  'hgroup',
  'center',
  'hr',
  'body',
  'html',
])
const LINE = new Set(['dt', 'dd', 'figcaption', 'summary', 'legend', 'caption', 'tr', 'option'])
const INLINE_CODE = new Set(['code', 'kbd', 'samp', 'tt'])
const HEADING = /^h([1-6])$/
const BLOCK_INSIDE = new Set([
  ...PARAGRAPH,
  ...LINE,
  'ul',
  'ol',
  'li',
  'pre',
  'table',
  'blockquote',
  ...HEADING_TAGS,
])
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:;|$|!)/i
const LANGUAGE = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/
const SAFE_URL = /^(?:https?:\/\/|mailto:)[^\s]+$/i

/**
 * The text of an HTML page or fragment ({@link htmlToPage} without the title).
 *
 * @example
 * htmlToText('<h2>Install</h2><p>Run <code>npm i</code> &amp; see ' +
 *   '<a href="https://x.dev/docs">the docs</a>.</p><ul><li>one<li>two</ul>')
 * // => '## Install\n\nRun `npm i` & see [the docs](https://x.dev/docs).\n\n- one\n- two'
 */
export function htmlToText(html: string): string {
  return htmlToPage(html).text
}

/**
 * Reads an HTML page: its title and its readable text. Links keep their text, with the address
 * as a Markdown link when it is an absolute `http(s)` or `mailto` one that says something the
 * text does not; images keep their alt text; whitespace outside `<pre>` is collapsed.
 *
 * @example
 * htmlToPage('<title>Deploy guide</title><body><h1>Deploying</h1><p>Ship it.</p>')
 * // => { title: 'Deploy guide', text: '# Deploying\n\nShip it.' }
 */
export function htmlToPage(html: string): HtmlPage {
  const root = parseHtml(html)
  const writer = new Writer()
  renderChildren(root, writer)
  const titleElement = find(root, 'title')
  const h1 = find(root, 'h1')
  const title =
    (titleElement && collapse(titleElement.children.join(''))) ||
    (h1 && collapse(textOf(h1, false)))
  const text = writer.done()
  return title ? { title, text } : { text }
}

function find(node: HtmlElement, tag: string): HtmlElement | undefined {
  const queue: HtmlElement[] = [node]
  for (let i = 0; i < queue.length; i++) {
    const element = queue[i]!
    if (element.tag === tag) return element
    for (const child of element.children) if (typeof child !== 'string') queue.push(child)
  }
  return undefined
}

function isHidden(element: HtmlElement): boolean {
  const { attrs } = element
  return (
    DROPPED.has(element.tag) ||
    Object.hasOwn(attrs, 'hidden') ||
    attrs['aria-hidden']?.trim().toLowerCase() === 'true' ||
    (attrs.style !== undefined && HIDDEN_STYLE.test(attrs.style)) ||
    (element.tag === 'dialog' && !Object.hasOwn(attrs, 'open'))
  )
}

function renderChildren(element: HtmlElement, writer: Writer): void {
  for (const child of element.children) {
    if (typeof child === 'string') writer.text(child)
    else render(child, writer)
  }
}

function render(element: HtmlElement, writer: Writer): void {
  if (isHidden(element)) return
  const { tag } = element
  const heading = HEADING.exec(tag)
  if (heading) renderHeading(element, Number(heading[1]), writer)
  else if (tag === 'br') writer.lineBreak()
  // An image stands apart from the words around it.
  else if (tag === 'img') writer.text(` ${element.attrs.alt ?? ''} `)
  else if (tag === 'pre') renderPre(element, writer)
  else if (INLINE_CODE.has(tag)) writer.code(collapse(textOf(element, false)))
  else if (tag === 'a') renderLink(element, writer)
  else if (tag === 'ul' || tag === 'ol' || tag === 'menu') renderList(element, writer)
  else if (tag === 'li') renderItem(element, '- ', writer)
  else if (tag === 'blockquote') renderQuote(element, writer)
  else if (tag === 'table' && !hasBlocks(element, true)) renderTable(element, writer)
  else {
    const breaks = PARAGRAPH.has(tag) || tag === 'table' ? 2 : LINE.has(tag) ? 1 : 0
    writer.block(breaks)
    renderChildren(element, writer)
    writer.block(breaks)
  }
}

function renderQuote(element: HtmlElement, writer: Writer): void {
  writer.block(2)
  writer.push('> ', '> ')
  renderChildren(element, writer)
  writer.pop()
  writer.block(2)
}

function renderHeading(element: HtmlElement, level: number, writer: Writer): void {
  const text = collapse(textOf(element, false))
  if (text === '') return
  writer.block(2)
  writer.text(`${'#'.repeat(level)} ${text}`)
  writer.block(2)
}

function renderPre(element: HtmlElement, writer: Writer): void {
  const code = find(element, 'code')
  const language = LANGUAGE.exec(code?.attrs.class ?? element.attrs.class ?? '')?.[1] ?? ''
  // The newline right after <pre> is not content (HTML drops it too).
  const text = textOf(element, true).replace(/^\n/, '').replace(/\s+$/, '')
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1))
  writer.block(2)
  writer.verbatim(`${fence}${language}\n${text}\n${fence}`)
  writer.block(2)
}

function renderLink(element: HtmlElement, writer: Writer): void {
  // A link around blocks renders them; its text is read only when it is written, or nested
  // links would each read all the text inside them again.
  if (hasBlocks(element)) {
    renderChildren(element, writer)
    return
  }
  const text = collapse(textOf(element, false))
  const href = (element.attrs.href ?? '').trim()
  const bare = href.replace(/^(?:https?:\/\/|mailto:)/i, '').replace(/\/$/, '')
  if (!SAFE_URL.test(href) || text === '') writer.text(text)
  else if (text === href || text === bare) writer.text(text)
  else {
    const label = text.replace(/([[\]])/g, '\\$1')
    writer.text(`[${label}](${href.replaceAll('(', '%28').replaceAll(')', '%29')})`)
  }
}

function renderList(element: HtmlElement, writer: Writer): void {
  writer.block(writer.depth > 0 ? 1 : 2)
  let number = Number.parseInt(element.attrs.start ?? '1', 10)
  if (!Number.isFinite(number)) number = 1
  for (const child of element.children) {
    if (typeof child === 'string') writer.text(child)
    else if (child.tag === 'li' && !isHidden(child)) {
      renderItem(child, element.tag === 'ol' ? `${number++}. ` : '- ', writer)
    } else render(child, writer)
  }
  writer.block(writer.depth > 0 ? 1 : 2)
}

function renderItem(element: HtmlElement, marker: string, writer: Writer): void {
  writer.block(1)
  writer.push(marker, ' '.repeat(marker.length))
  renderChildren(element, writer)
  writer.pop()
  writer.block(1)
}

function renderTable(element: HtmlElement, writer: Writer): void {
  const rows: string[][] = []
  const collect = (node: HtmlElement) => {
    for (const child of node.children) {
      if (typeof child === 'string' || isHidden(child)) continue
      if (child.tag === 'tr') {
        const cells = child.children.filter(
          (c): c is HtmlElement => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th'),
        )
        rows.push(cells.map((c) => cellText(c).replaceAll('|', '\\|')))
      } else if (child.tag !== 'table') collect(child)
    }
  }
  collect(element)
  const width = rows.reduce((most, row) => Math.max(most, row.length), 0)
  if (width === 0) return
  writer.block(2)
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`
  const lines = [line(rows[0]!), line(Array(width).fill('---')), ...rows.slice(1).map(line)]
  writer.verbatim(lines.join('\n'))
  writer.block(2)
}

/** A cell's text on one line, inline code kept. */
function cellText(cell: HtmlElement): string {
  const writer = new Writer()
  renderChildren(cell, writer)
  return collapse(writer.done())
}

const TABLE_PART = /^(?:tr|td|th|thead|tbody|tfoot|caption)$/
// Each element's answer, for either way of asking: nested links and tables ask about the same
// elements again at every level, which was quadratic in the nesting.
const HOLDS_BLOCKS = [new WeakMap<HtmlElement, boolean>(), new WeakMap<HtmlElement, boolean>()]

/** Whether an element holds block elements (a link wrapping a card, a layout table). */
function hasBlocks(element: HtmlElement, skipTableParts = false): boolean {
  const memo = HOLDS_BLOCKS[skipTableParts ? 1 : 0]!
  const known = memo.get(element)
  if (known !== undefined) return known
  let found = false
  for (const child of element.children) {
    if (typeof child === 'string' || isHidden(child)) continue
    const table = skipTableParts && TABLE_PART.test(child.tag)
    if ((!table && BLOCK_INSIDE.has(child.tag)) || hasBlocks(child, skipTableParts)) {
      found = true
      break
    }
  }
  memo.set(element, found)
  return found
}

/** The text inside an element, hidden parts left out; `<br>` as a newline when `keepLines`. */
function textOf(node: HtmlNode, keepLines: boolean): string {
  const parts: string[] = []
  collectText(node, keepLines, parts)
  return parts.join('')
}

// Into one list, joined once: joining at every level copied deep text once per level.
function collectText(node: HtmlNode, keepLines: boolean, parts: string[]): void {
  if (typeof node === 'string') parts.push(node)
  else if (node.tag === 'br') parts.push(keepLines ? '\n' : ' ')
  else if (node.tag === 'img') parts.push(node.attrs.alt ?? '')
  else if (!isHidden(node)) for (const child of node.children) collectText(child, keepLines, parts)
}

function collapse(text: string): string {
  return text.split(HTML_SPACE).filter(Boolean).join(' ')
}

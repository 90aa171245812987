/**
 * The text a memory is embedded from: its content, plus the names it answers to and, for a
 * chunk of a page, where in the page it sits, so a chunk that says "Run it with --force" is
 * still found by "how do I reinstall the Linux agent".
 */

/** What {@link embeddingText} reads; a `Memory` is one. */
export interface EmbeddingSource {
  text: string
  tags?: readonly string[]
  aliases?: readonly string[]
  /** For a chunk of a page: the page's title. */
  pageTitle?: string
  /** For a chunk of a page: its heading path, outermost first. */
  headingPath?: readonly string[]
}

/**
 * Header lines, then a blank line, then the text, trimmed (a chunk ends with the blank lines
 * before the next block); a memory with nothing to add is embedded from its text alone, so
 * vectors of plain facts (stored trimmed) do not change. The header comes first because
 * embedders truncate from the end (bge at 512 tokens): the short context always survives.
 *
 * ```text
 * Install guide > Install > Linux      (a chunk: title and headings, ' > ' between)
 * Aliases: FH-2291; auth flow          (when it has aliases, '; ' between)
 * Tags: deploy, ci                     (when it has tags, ', ' between)
 *
 * <text>
 * ```
 *
 * @example
 * embeddingText({ text: 'Run it with --force.', tags: ['ops'], pageTitle: 'Agent guide',
 *   headingPath: ['Install', 'Linux'] })
 * // => 'Agent guide > Install > Linux\nTags: ops\n\nRun it with --force.'
 */
export function embeddingText(source: EmbeddingSource): string {
  const header: string[] = []
  const place = [source.pageTitle ?? '', ...(source.headingPath ?? [])].filter((s) => s !== '')
  if (place.length > 0) header.push(place.join(' > '))
  if (source.aliases && source.aliases.length > 0)
    header.push(`Aliases: ${source.aliases.join('; ')}`)
  if (source.tags && source.tags.length > 0) header.push(`Tags: ${source.tags.join(', ')}`)
  const text = source.text.trim()
  return header.length === 0 ? text : `${header.join('\n')}\n\n${text}`
}

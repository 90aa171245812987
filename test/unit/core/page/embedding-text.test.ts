import { describe, expect, it } from 'vitest'
import { embeddingText } from '../../../../src/core/page/embedding-text.ts'

describe('embeddingText', () => {
  it('is the text alone for a memory with no tags, aliases or page', () => {
    expect(embeddingText({ text: 'The owner prefers metric units', tags: [], aliases: [] })).toBe(
      'The owner prefers metric units',
    )
  })

  it('puts aliases and tags on header lines before the text', () => {
    expect(
      embeddingText({
        text: 'Priya owns the flaky test',
        tags: ['ci', 'flaky'],
        aliases: ['FH-2291'],
      }),
    ).toBe('Aliases: FH-2291\nTags: ci, flaky\n\nPriya owns the flaky test')
  })

  it('leads a chunk with its page title and heading path, and trims the chunk', () => {
    expect(
      embeddingText({
        text: 'Run it with --force.\n\n',
        pageTitle: 'Agent guide',
        headingPath: ['Install', 'Linux'],
      }),
    ).toBe('Agent guide > Install > Linux\n\nRun it with --force.')
    expect(embeddingText({ text: 'Intro.', headingPath: [] })).toBe('Intro.')
  })
})

import { describe, expect, it } from 'vitest'
import { headingText, parsePage } from '../../../../src/core/page/markdown-blocks.ts'

const kinds = (page: string) =>
  parsePage(page).sections.flatMap((s) => s.blocks.map((b) => [b.kind, page.slice(b.start, b.end)]))

describe('parsePage', () => {
  it('finds each kind of block with its range', () => {
    const page = [
      '# Title',
      'A paragraph\nover two lines.',
      '- one\n- two\n  - nested',
      '```js\nconst a = 1\n\n# not a heading\n```',
      '    indented code',
      '> quoted\n> text',
      '| a | b |\n| --- | --- |\n| 1 | 2 |',
      '---',
      'Setext\n======',
    ].join('\n\n')
    expect(kinds(page)).toEqual([
      ['heading', '# Title'],
      ['paragraph', 'A paragraph\nover two lines.'],
      ['list', '- one\n- two\n  - nested'],
      ['code', '```js\nconst a = 1\n\n# not a heading\n```'],
      ['code', '    indented code'],
      ['quote', '> quoted\n> text'],
      ['table', '| a | b |\n| --- | --- |\n| 1 | 2 |'],
      ['break', '---'],
      ['heading', 'Setext\n======'],
    ])
  })

  it('records fenced code inside lists and quotes, so no heading is read inside it', () => {
    const page =
      '- Step one:\n\n  ```bash\n  # install\n  npm ci\n  ```\n\n> ```\n> # quoted code\n> ```'
    const { sections, code } = parsePage(page)
    expect(sections).toHaveLength(1)
    expect(code.map((r) => page.slice(r.start, r.end))).toEqual([
      '  ```bash\n  # install\n  npm ci\n  ```',
      '> ```\n> # quoted code\n> ```',
    ])
  })

  it('runs an unclosed fence to the end of the page', () => {
    const page = 'Text.\n\n```\ncode\n# still code'
    expect(kinds(page).map(([kind]) => kind)).toEqual(['paragraph', 'code'])
  })

  it('ends a list at a paragraph after a blank line but keeps indented continuations', () => {
    const page = '- item\n\n  continued\n- next\n\nAfter the list.'
    expect(kinds(page)).toEqual([
      ['list', '- item\n\n  continued\n- next'],
      ['paragraph', 'After the list.'],
    ])
  })

  it('lets a heading, fence or quote interrupt a paragraph', () => {
    expect(kinds('Para\n# Head\nPara two\n```\nx\n```').map(([kind]) => kind)).toEqual([
      'paragraph',
      'heading',
      'paragraph',
      'code',
    ])
  })

  it('tiles the page with sections, each ending where the next heading starts', () => {
    const page = 'Intro.\n\n# A\n\nText.\n\n## B\n\nMore.\n'
    const { sections } = parsePage(page)
    expect(sections.map((s) => [page.slice(s.start, s.end), s.headingPath])).toEqual([
      ['Intro.\n\n', []],
      ['# A\n\nText.\n\n', ['A']],
      ['## B\n\nMore.\n', ['A', 'B']],
    ])
  })

  it('closes deeper headings when a shallower one comes', () => {
    const page = '# A\n\nx\n\n### C\n\ny\n\n## D\n\nz\n\n# E\n\nw'
    expect(parsePage(page).sections.map((s) => s.headingPath)).toEqual([
      ['A'],
      ['A', 'C'],
      ['A', 'D'],
      ['E'],
    ])
  })

  it('takes closing hashes off an ATX heading', () => {
    expect(parsePage('## Install ##\n\nx').sections[0]!.headingPath).toEqual(['Install'])
  })
})

describe('headingText', () => {
  it('drops emphasis, code marks and link targets but keeps identifiers', () => {
    expect(headingText('Configure **`auth_handler`** with [the CLI](https://x.dev) ')).toBe(
      'Configure auth_handler with the CLI',
    )
    expect(headingText('_Why_ snake_case_names stay')).toBe('Why snake_case_names stay')
  })
})

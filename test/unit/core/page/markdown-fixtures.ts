/**
 * Random Markdown-ish pages for the chunker's property tests, built from parts so the test knows,
 * independently of the parser, where every code block, URL, identifier and section is.
 */

import fc from 'fast-check'

export interface Span {
  start: number
  end: number
}

/** A run of text; `atom` marks one no chunk boundary may fall strictly inside. */
export interface Part {
  text: string
  atom?: boolean
}

export interface SectionSpec {
  level: number
  title: string
  body: Part[][]
}

export interface DocSpec {
  preamble: Part[][]
  sections: SectionSpec[]
}

/** A built page with what the test knows about it. */
export interface Doc {
  text: string
  atoms: Span[]
  /** `[start, end)` of each section in order (the preamble, if any, first) and its heading path. */
  sections: (Span & { path: string[] })[]
}

const WORDS = [
  'the',
  'agent',
  'deploys',
  'memory',
  'quickly',
  'and',
  'Priya',
  'owner',
  'prefers',
  'metric',
  'units',
  'café',
  'naïve',
  'Straße',
  'résumé',
  'über',
  'east',
  'index',
  'runs',
  'in',
  'a',
  'worker',
]
const ATOMS = [
  'auth_handler',
  'authHandler',
  'auth-handler',
  'src/core/x.ts',
  '--flag=value',
  '--no-verify',
  'v1.2.3',
  'FH-2291',
  'e.g.',
  'https://example.com/a/b.c?q=1&x=y#frag',
  'http://127.0.0.1:4173/models/bge-small/config.json',
  'www.example.org/path.',
  '`npm run build. Then ship`',
  '[the docs. See](https://x.dev/a.b)',
  'user@example.com',
  '👋🏽',
  '👨‍👩‍👧',
  '🇯🇵',
]
const TERMINATORS = ['.', '!', '?', '.', '.']
const CJK_SENTENCES = [
  '東京は日本の首都です。',
  '記憶はブラウザに保存されます。',
  '我们明天开会吗？',
  '这是一个测试！',
]
const CODE_LINES = [
  '# install dependencies',
  '## not a heading either',
  'npm ci --no-audit',
  'const x = auth_handler(y). then(z)',
  '',
  '    indented line. With a period',
  'echo "done. Next" > /tmp/out.txt',
  '- not a list item',
]
const TITLES = ['Install', 'Linux', 'Configure', 'Usage', 'FAQ', 'Troubleshooting', 'API']

const word: fc.Arbitrary<Part> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.constantFrom(...ATOMS).map((text) => ({ text, atom: true })) },
)

const sentence: fc.Arbitrary<Part[]> = fc
  .tuple(fc.array(word, { minLength: 2, maxLength: 18 }), fc.constantFrom(...TERMINATORS))
  .map(([words, end]) => {
    const parts: Part[] = []
    words.forEach((w, i) => {
      if (i > 0) parts.push({ text: ' ' })
      // Sentences start with a capital so the full stop before them ends a sentence.
      parts.push(i === 0 && !w.atom ? { text: w.text[0]!.toUpperCase() + w.text.slice(1) } : w)
    })
    parts.push({ text: end })
    return parts
  })

const joinParts = (groups: Part[][], separator: string): Part[] =>
  groups.flatMap((group, i) => (i === 0 ? group : [{ text: separator }, ...group]))

const paragraph = (max: number) =>
  fc.array(sentence, { minLength: 1, maxLength: max }).map((sentences) => joinParts(sentences, ' '))

const list = fc
  .array(fc.tuple(fc.boolean(), sentence), { minLength: 1, maxLength: 8 })
  .map((items) =>
    joinParts(
      items.map(([nested, s], i) => [{ text: nested && i > 0 ? '  - ' : '- ' }, ...s]),
      '\n',
    ),
  )

const code = fc
  .tuple(
    fc.constantFrom('', 'bash', 'ts'),
    fc.array(fc.constantFrom(...CODE_LINES), { minLength: 0, maxLength: 40 }),
  )
  .map(([lang, lines]): Part[] => [
    { text: `\`\`\`${lang}\n${lines.map((l) => `${l}\n`).join('')}\`\`\``, atom: true },
  ])

const table = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...ATOMS)), {
    minLength: 1,
    maxLength: 6,
  })
  .map((rows): Part[] => [
    { text: '| name | value |\n| --- | --- |' },
    ...rows.flatMap(([a, b]) => [{ text: `\n| ${a} | ` }, { text: b, atom: true }, { text: ' |' }]),
  ])

const quote = sentence.map((s): Part[] => [{ text: '> ' }, ...s])

const cjk = fc
  .array(fc.constantFrom(...CJK_SENTENCES), { minLength: 1, maxLength: 60 })
  .map((sentences): Part[] => [{ text: sentences.join('') }])

/** One block: mostly short paragraphs, sometimes one long enough to be cut at sentences. */
export const block: fc.Arbitrary<Part[]> = fc.oneof(
  { weight: 5, arbitrary: paragraph(4) },
  { weight: 2, arbitrary: paragraph(30) },
  { weight: 2, arbitrary: list },
  { weight: 2, arbitrary: code },
  { weight: 1, arbitrary: table },
  { weight: 1, arbitrary: quote },
  { weight: 1, arbitrary: cjk },
)

export const body: fc.Arbitrary<Part[][]> = fc.array(block, { minLength: 1, maxLength: 6 })

export const section: fc.Arbitrary<SectionSpec> = fc.record({
  level: fc.integer({ min: 1, max: 3 }),
  title: fc.constantFrom(...TITLES),
  body,
})

export const docSpec: fc.Arbitrary<DocSpec> = fc.record({
  preamble: fc.oneof(fc.constant<Part[][]>([]), body),
  sections: fc.array(section, { minLength: 1, maxLength: 6 }),
})

/** Builds the page: blocks apart by a blank line, sections too, headings as ATX lines. */
export function buildDoc(spec: DocSpec): Doc {
  let text = ''
  const atoms: Span[] = []
  const sections: Doc['sections'] = []
  const add = (part: Part) => {
    if (part.atom) atoms.push({ start: text.length, end: text.length + part.text.length })
    text += part.text
  }
  const addBody = (blocks: Part[][]) => {
    blocks.forEach((parts, i) => {
      if (i > 0) add({ text: '\n\n' })
      parts.forEach(add)
    })
  }
  const path: { level: number; title: string }[] = []
  if (spec.preamble.length > 0) {
    addBody(spec.preamble)
    sections.push({ start: 0, end: text.length, path: [] })
  }
  for (const s of spec.sections) {
    if (text !== '') add({ text: '\n\n' })
    if (sections.length > 0) sections[sections.length - 1]!.end = text.length
    const start = text.length
    add({ text: `${'#'.repeat(s.level)} ${s.title}\n\n` })
    addBody(s.body)
    while (path.length > 0 && path[path.length - 1]!.level >= s.level) path.pop()
    path.push({ level: s.level, title: s.title })
    sections.push({ start, end: text.length, path: path.map((h) => h.title) })
  }
  return { text, atoms, sections }
}

import { describe, expect, it } from 'vitest'
import { splitFrontMatter, writeFrontMatter } from '../../../src/import/front-matter.ts'
import { readNote } from '../../../src/import/notes.ts'
import { hashSeed, TEST_SEED, uniform } from '../../helpers/random.ts'

describe('front matter', () => {
  it('reads inline lists, block lists, quoted and plain values, and leaves a note without one alone', () => {
    const note =
      '---\ntitle: "A: b"\ntags: [one, "two, three"]\naliases:\n  - Al\n  - \'Bo\'\ndate: 2024-05-01 # a comment\n---\n# Body\n'
    expect(splitFrontMatter(note)).toEqual({
      data: {
        title: 'A: b',
        tags: ['one', 'two, three'],
        aliases: ['Al', 'Bo'],
        date: '2024-05-01',
      },
      body: '# Body\n',
    })
    expect(splitFrontMatter('# No front matter\n---\n')).toEqual({
      data: {},
      body: '# No front matter\n---\n',
    })
    expect(splitFrontMatter('---\nunclosed: yes\n')).toEqual({
      data: {},
      body: '---\nunclosed: yes\n',
    })
  })

  it('reads back what it writes, for any strings (seeded)', () => {
    const next = uniform(hashSeed(`${TEST_SEED}:front-matter`))
    const alphabet = ['a', 'Z', ' ', ':', ',', '"', "'", '#', '[', ']', '\\', 'é', '中', '-', '\t']
    const word = () =>
      Array.from(
        { length: 1 + Math.floor(next() * 12) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join('')
    for (let i = 0; i < 200; i++) {
      const data = { id: word(), title: word(), tags: [word(), word()] }
      const { data: read, body } = splitFrontMatter(`${writeFrontMatter(data)}\nbody`)
      expect(read).toEqual(data)
      expect(body).toBe('\nbody')
    }
  })
})

describe('readNote', () => {
  it('takes title, tags and dates from front matter, and wiki-link targets from the body', () => {
    const note = readNote({
      path: 'Trips/Lisbon.md',
      text: '---\ntags: [Travel, "#City Break"]\ncreated: 2024-05-01\nmodified: 2024-05-02T10:00:00Z\n---\nSee [[Porto]], [[Trips/Faro#Beach|Faro]] and [[Porto]].',
    })
    expect(note).toEqual({
      path: 'Trips/Lisbon.md',
      title: 'Lisbon',
      text: 'See [[Porto]], [[Trips/Faro#Beach|Faro]] and [[Porto]].',
      tags: ['travel', 'city-break'],
      createdAt: Date.parse('2024-05-01'),
      updatedAt: Date.parse('2024-05-02T10:00:00Z'),
      links: ['Porto', 'Trips/Faro'],
      relations: [],
    })
  })

  it('takes the title from a leading heading, else the file name, and the file time when no date is given', () => {
    expect(readNote({ path: 'a/b.md', text: '# Heading title\n\ntext' }).title).toBe(
      'Heading title',
    )
    const plain = readNote({
      path: 'a/Plain note.md',
      text: 'text\n# later heading',
      modifiedAt: 5,
    })
    expect(plain).toMatchObject({ title: 'Plain note', updatedAt: 5 })
  })
})

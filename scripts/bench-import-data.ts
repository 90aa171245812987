/**
 * The import benchmarks' input: a seeded ChatGPT `conversations.json` of pseudo-words (a
 * vocabulary wide enough for the keyword index to be realistic), with regenerated answers now
 * and then (branches the importer must leave out). Shared by `scripts/bench-import.ts` (Node)
 * and `scripts/bench-import-browser.ts` (Chromium), so both read the same bytes.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { uniform } from './models/rng.ts'

/** Where a generated export of `mb` MB and `seed` is kept between runs. */
export function exportPath(mb: number, seed: number): string {
  return join(tmpdir(), `engram-bench-chatgpt-${mb}mb-${seed}.json`)
}

/** Pseudo-words from syllables: a vocabulary wide enough for the keyword index to be realistic. */
function vocabulary(next: () => number, size: number): string[] {
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ne',
    'ru',
    'sa',
    'ti',
    'vo',
    'pe',
    'da',
    'gri',
    'fen',
    'tor',
    'bel',
    'qui',
    'zan',
  ]
  const words = new Set<string>()
  while (words.size < size) {
    const n = 1 + Math.floor(next() * 3)
    let w = ''
    for (let i = 0; i < n; i++) w += syllables[Math.floor(next() * syllables.length)]
    words.add(w)
  }
  return [...words]
}

/** Writes a seeded ChatGPT export of about `bytes` bytes to `path`: the benchmarks' input. */
export function generateChatgptExport(path: string, bytes: number, seed: number): void {
  const next = uniform(seed)
  const words = vocabulary(next, 4000)
  const sentence = () => {
    const n = 6 + Math.floor(next() * 14)
    const out: string[] = []
    for (let i = 0; i < n; i++) out.push(words[Math.floor(next() ** 2 * words.length)]!)
    const s = out.join(' ')
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`
  }
  const paragraph = (sentences: number) => Array.from({ length: sentences }, sentence).join(' ')
  const fd = openSync(path, 'w')
  let written = 0
  const put = (s: string) => {
    written += writeSync(fd, s)
  }
  put('[')
  const start = Date.UTC(2024, 0, 1) / 1000
  for (let c = 0; written < bytes; c++) {
    const mapping: Record<string, unknown> = {
      [`r${c}`]: { id: `r${c}`, message: null, parent: null, children: [`m${c}-0`] },
    }
    const turns = 2 + Math.floor(next() * 10)
    let parent = `r${c}`
    let at = start + c * 3600
    for (let t = 0; t < turns; t++) {
      const id = `m${c}-${t}`
      const role = t % 2 === 0 ? 'user' : 'assistant'
      const text =
        role === 'user'
          ? paragraph(1 + Math.floor(next() * 2))
          : Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
              paragraph(3 + Math.floor(next() * 5)),
            ).join('\n\n')
      const children = t + 1 < turns ? [`m${c}-${t + 1}`] : []
      // A regenerated answer now and then: a branch the importer must leave out.
      if (role === 'assistant' && next() < 0.2) {
        const old = `${id}-old`
        mapping[old] = {
          id: old,
          parent,
          children: [],
          message: {
            id: old,
            author: { role },
            create_time: at,
            content: { content_type: 'text', parts: [paragraph(4)] },
          },
        }
        const p = mapping[parent] as { children: string[] }
        p.children.push(old)
      }
      mapping[id] = {
        id,
        parent,
        children,
        message: {
          id,
          author: { role },
          create_time: at,
          content: { content_type: 'text', parts: [text] },
          metadata: {},
        },
      }
      parent = id
      at += 30 + Math.floor(next() * 600)
    }
    const conversation = {
      title: sentence().slice(0, 60),
      create_time: start + c * 3600,
      update_time: at,
      mapping,
      current_node: parent,
      conversation_id: `bench-${seed}-${c}`,
      id: `bench-${seed}-${c}`,
    }
    put(`${c === 0 ? '' : ','}\n${JSON.stringify(conversation)}`)
  }
  put('\n]\n')
  closeSync(fd)
}

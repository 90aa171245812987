/**
 * Seeded generated Markdown for the page benchmarks: sections and subsections of prose from the
 * common-word list, with a fenced code block and a list now and then, cut to a byte size.
 */
import { uniform } from '../models/rng.ts'
import { COMMON_WORDS } from '../models/words.ts'

const WORDS = COMMON_WORDS.split(/\s+/).filter((w) => /^[a-z]+$/.test(w))

function sentence(next: () => number): string {
  const n = 8 + Math.floor(next() * 14)
  const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!)
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1)
  return `${words.join(' ')}.`
}

function block(next: () => number, section: number): string {
  const roll = next()
  if (roll < 0.1) {
    return ['```sh', `for f in part-${section}/*.log; do`, '    gzip  "$f"', 'done', '```'].join(
      '\n',
    )
  }
  if (roll < 0.2) {
    return Array.from({ length: 3 + Math.floor(next() * 3) }, () => `- ${sentence(next)}`).join(
      '\n',
    )
  }
  return Array.from({ length: 3 + Math.floor(next() * 4) }, () => sentence(next)).join(' ')
}

/**
 * A Markdown page of about `bytes` UTF-8 bytes (ASCII, so characters): `# title`, then `##`
 * sections of three `###` subsections, each a few blocks. The same seed gives the same page.
 */
export function markdownPage(bytes: number, seed: number, title = `Guide ${seed}`): string {
  const next = uniform(seed)
  const out: string[] = [`# ${title}`]
  let size = out[0]!.length
  for (let s = 1; size < bytes; s++) {
    const heading = s % 3 === 1 ? `## Part ${Math.ceil(s / 3)}` : `### Topic ${s}`
    out.push(heading)
    size += heading.length + 2
    for (let b = 0; b < 3 && size < bytes; b++) {
      const text = block(next, s)
      out.push(text)
      size += text.length + 2
    }
  }
  return out.join('\n\n').slice(0, bytes).trimEnd()
}

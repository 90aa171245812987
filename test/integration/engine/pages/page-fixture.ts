import { TEST_SEED, uniform } from '../../../helpers/random.ts'

const WORDS = (
  'garden tomato basil window shelf kettle lantern river meadow pebble orchard ' +
  'cedar maple willow harbor island valley canyon summit glacier prairie desert ' +
  'violin piano cello flute drum guitar harp trumpet oboe clarinet banjo lute'
).split(' ')

/** A seeded sentence of 8..15 words ending in a full stop. */
function sentence(next: () => number): string {
  const n = 8 + Math.floor(next() * 8)
  const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!)
  const first = words[0]!
  words[0] = first[0]!.toUpperCase() + first.slice(1)
  return `${words.join(' ')}.`
}

/**
 * A seeded Markdown guide: `sections` headings, each with a few paragraphs of generated prose,
 * plus one fenced code block whose indentation must survive a round trip.
 */
export function guide(sections: number, paragraphs = 4, seed = TEST_SEED): string {
  const next = uniform(seed)
  const out: string[] = ['# Agent guide', '']
  for (let s = 0; s < sections; s++) {
    out.push(`## Section ${s + 1}`, '')
    for (let p = 0; p < paragraphs; p++) {
      out.push(Array.from({ length: 5 }, () => sentence(next)).join(' '), '')
    }
    if (s === 0) out.push('```sh', 'for f in *.log; do', '    gzip  "$f"', 'done', '```', '')
  }
  return out.join('\n').trimEnd()
}

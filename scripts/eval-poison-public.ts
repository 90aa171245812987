/**
 * The poison screen on public sources and real chat, through `analyseText` (what
 * `remember(text, { poison: 'flag' })` stores as flags): `npm run eval:poison -- --public`.
 * Held-out sources first (never trained or calibrated on), per source and per style, then the
 * training sources (in-sample, a check only), then real chat turns for false positives.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { analyseText } from '../src/core/poison/index.ts'
import { screenWith } from '../src/core/poison/screen.ts'
import * as holdout from '../test/fixtures/poison-holdout.ts'
import {
  EVALUATION_ONLY,
  HELD_OUT,
  loadPublic,
  PUBLIC_TRAIN,
  type Sample,
  touches,
  trainingSet,
} from './train-poison.ts'

const SHARED = join(PUBLIC_TRAIN, '..', '..')
const percent = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`)
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`

interface Tally {
  attacks: number
  caught: number
  caughtByRules: number
  benign: number
  flagged: number
  flaggedByRules: number
}

const empty = (): Tally => ({
  attacks: 0,
  caught: 0,
  caughtByRules: 0,
  benign: 0,
  flagged: 0,
  flaggedByRules: 0,
})

function tally(samples: readonly Sample[], key: (s: Sample) => string): Map<string, Tally> {
  const out = new Map<string, Tally>()
  const all = empty()
  for (const s of samples) {
    const t = out.get(key(s)) ?? empty()
    out.set(key(s), t)
    const whole = analyseText(s.text).flagged
    const rules = screenWith(s.text, null).flagged
    for (const x of [t, all]) {
      if (s.label === 1) {
        x.attacks++
        if (whole) x.caught++
        if (rules) x.caughtByRules++
      } else {
        x.benign++
        if (whole) x.flagged++
        if (rules) x.flaggedByRules++
      }
    }
  }
  out.set('**all**', all)
  return out
}

function print(title: string, table: Map<string, Tally>): void {
  console.log(`\n### ${title}\n`)
  console.log(
    row([
      '',
      'attacks',
      'caught: rules',
      'caught: screen',
      'benign',
      'flagged: rules',
      'flagged: screen',
    ]),
  )
  console.log(row(['---', '---:', '---:', '---:', '---:', '---:', '---:']))
  for (const [name, t] of table) {
    console.log(
      row([
        name,
        t.attacks,
        percent(t.caughtByRules, t.attacks),
        percent(t.caught, t.attacks),
        t.benign,
        percent(t.flaggedByRules, t.benign),
        percent(t.flagged, t.benign),
      ]),
    )
  }
}

/** LoCoMo turns and MSC persona facts (train split), as benign samples. */
export function realChat(): Sample[] {
  const out: Sample[] = []
  const locomo = join(SHARED, 'locomo', 'locomo-dev.json')
  if (existsSync(locomo)) {
    const data = JSON.parse(readFileSync(locomo, 'utf8')) as {
      conversation: Record<string, unknown>
    }[]
    for (const c of data) {
      for (const turns of Object.values(c.conversation)) {
        if (!Array.isArray(turns)) continue
        for (const turn of turns as { text: string }[]) {
          out.push({
            text: turn.text,
            label: 0,
            style: 'chat turn',
            source: 'LoCoMo',
            origin: 'LoCoMo',
          })
        }
      }
    }
  }
  const msc = join(SHARED, 'msc', 'msc_personas_all.json')
  if (existsSync(msc)) {
    const data = JSON.parse(readFileSync(msc, 'utf8')) as {
      train: Record<string, string[] | number>[]
    }
    for (const persona of data.train) {
      for (const facts of Object.values(persona)) {
        if (!Array.isArray(facts)) continue
        for (const text of facts) {
          out.push({ text, label: 0, style: 'persona fact', source: 'MSC', origin: 'MSC' })
        }
      }
    }
  }
  return out
}

/**
 * The held-out and share-alike texts of the public file (never trained on), and the project's
 * untouched split.
 */
export function heldOutSamples(all: readonly Sample[] = loadPublic()): Sample[] {
  const training = new Set(trainingSet(all))
  const held = all.filter(
    (s) => !training.has(s) && [...HELD_OUT, ...EVALUATION_ONLY].some((h) => touches(s, h)),
  )
  for (const s of holdout.ATTACKS) {
    held.push({ text: s.text, label: 1, style: s.style, source: 'engram/holdout', origin: '' })
  }
  for (const s of holdout.BENIGN) {
    held.push({ text: s.text, label: 0, style: s.style, source: 'engram/holdout', origin: '' })
  }
  return held
}

export async function evaluatePublic(): Promise<void> {
  const all = loadPublic()
  const training = new Set(trainingSet(all))
  const held = heldOutSamples(all)
  console.log('## Poison screen on public sources (`npm run eval:poison -- --public`)')
  console.log(
    `\nHeld out: ${HELD_OUT.join(', ')} and the project's holdout split; share-alike, never trained on (the calibration's benign texts): ${EVALUATION_ONLY.join(', ')}. TaskTracker attacks planted in BIPIA e-mails count under BIPIA.`,
  )
  const heldSource = (s: Sample) =>
    [...HELD_OUT, ...EVALUATION_ONLY].find((h) => touches(s, h)) ?? s.source
  print('Held-out sources, per source', tally(held, heldSource))
  print(
    'Held-out sources, per style',
    tally(held, (s) => s.style),
  )
  print(
    'Training sources (in-sample: a check, not a prediction)',
    tally([...training], (s) => s.source),
  )
  const chat = realChat()
  if (chat.length > 0)
    print(
      'Real chat (benign)',
      tally(chat, (s) => s.source),
    )
}

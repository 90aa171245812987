/**
 * Evaluation data, read at run time from `../shared/eval` (never copied into the repository),
 * turned into one shape: stores of memories, each credited with relevance keys, and questions
 * naming the keys that answer them.
 *
 * Formats: the generic `{ name, memories, queries }` file and LoCoMo's list of conversations,
 * both described in `shared/eval/README.md`.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'

/** One memory to store. A retrieved memory is relevant when any of its `keys` is. */
export interface EvalItem {
  /** Relevance keys: the generic id, a LoCoMo dia_id, or the dia_ids an observation cites. */
  keys: string[]
  text: string
  type?: string
  tags?: string[]
  aliases?: string[]
  meta?: Record<string, unknown>
}

export interface EvalQuestion {
  query: string
  /** Keys of the memories that answer it; a hit is any one of them. */
  relevant: string[]
  /** Generic `kind`, or the LoCoMo category as a string ('1'…'5'). */
  kind: string
}

/** One memory store: built fresh, filled, then asked its questions. */
export interface EvalStore {
  name: string
  items: EvalItem[]
  questions: EvalQuestion[]
  /** Questions of this store left out, by reason (LoCoMo); the set's `skipped` sums them. */
  skipped?: Record<string, number>
}

export interface EvalSet {
  /** The file's `name`, or its base name without `.json`. */
  name: string
  format: 'generic' | 'locomo'
  unit: Unit
  stores: EvalStore[]
  /** Questions left out, by reason. */
  skipped: Record<string, number>
  /** Kinds scored and reported apart, never in `overall` (LoCoMo category 5, adversarial). */
  apart: string[]
}

export type Unit = 'turns' | 'observations'

/** How LoCoMo turns become memories; each field is a lever measured in docs/quality.md. */
export interface LocomoShape {
  /**
   * Where the speaker's name goes: `text` prefixes it (`Caroline: …`, as the README defines
   * the unit); `tag` and `alias` put it in that field instead; `text+tag` does both.
   * @default 'text+tag'
   */
  speaker: 'text' | 'tag' | 'alias' | 'text+tag'
  /**
   * The session date always rides along as `meta.date`; `tags` also tags the memory with its
   * month and year (`may`, `2023`), `text` appends `(8 May 2023)` to the text.
   * @default 'tags'
   */
  dates: 'meta' | 'tags' | 'text'
  /** Append a shared image's caption (`[image: a photo of …]`) to the turn's text. @default false */
  captions: boolean
}

/**
 * The shape `npm run eval` uses unless told otherwise: the README's speaker-prefixed text, plus
 * the speaker and the session's month and year as tags, which is how an assistant would file a
 * conversation turn. docs/quality.md measures each choice; `--speaker text --dates meta` is the
 * README's bare unit.
 */
export const DEFAULT_LOCOMO_SHAPE: Readonly<LocomoShape> = Object.freeze({
  speaker: 'text+tag',
  dates: 'tags',
  captions: false,
})

/** The LoCoMo category left out of `overall`: its questions rest on a false premise. */
export const ADVERSARIAL = '5'

/** Which part of a dataset to run: everything, the tuning part, or the held-out part. */
export type Split = 'all' | 'tune' | 'holdout'

/**
 * How many LoCoMo conversations, in file order, are for tuning; the rest are held out. The rule
 * was fixed before any tuning: with `locomo-dev.json`'s five conversations, conv-26, conv-30 and
 * conv-41 tune, conv-42 and conv-43 are held out and run only to report.
 */
export const LOCOMO_TUNE_CONVERSATIONS = 3

/**
 * The part of `set` a split names. LoCoMo splits by conversation ({@link
 * LOCOMO_TUNE_CONVERSATIONS}); a generic file is one store and is its own split (the personal
 * sets come as separate tuning and held-out files), so `tune` and `holdout` leave it whole.
 *
 * @example
 * splitSet(locomoDev, 'holdout').stores.map((s) => s.name) // => ['conv-42', 'conv-43']
 */
export function splitSet(set: EvalSet, split: Split): EvalSet {
  if (split === 'all' || set.format !== 'locomo') return set
  const stores =
    split === 'tune'
      ? set.stores.slice(0, LOCOMO_TUNE_CONVERSATIONS)
      : set.stores.slice(LOCOMO_TUNE_CONVERSATIONS)
  const skipped: Record<string, number> = {}
  for (const store of stores) {
    for (const [why, n] of Object.entries(store.skipped ?? {}))
      skipped[why] = (skipped[why] ?? 0) + n
  }
  return { ...set, name: `${set.name} (${split})`, stores, skipped }
}

/** Reads either format, telling them apart by shape. */
export function loadDataset(
  path: string,
  unit: Unit = 'turns',
  shape: Partial<LocomoShape> = {},
): EvalSet {
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'))
  const fallbackName = basename(path).replace(/\.json$/i, '')
  if (Array.isArray(raw)) {
    return fromLocomo(raw as LocomoConversation[], fallbackName, unit, {
      ...DEFAULT_LOCOMO_SHAPE,
      ...shape,
    })
  }
  if (raw && typeof raw === 'object' && 'memories' in raw && 'queries' in raw) {
    return fromGeneric(raw as GenericFile, fallbackName)
  }
  throw new TypeError(
    `${path}: expected the generic format ({ memories, queries }) or LoCoMo (a list of conversations)`,
  )
}

// ---------------------------------------------------------------- generic

interface GenericFile {
  name?: string
  memories: { id: string; text: string; type?: string; tags?: string[]; createdAt?: string }[]
  queries: { q: string; relevant: string[]; kind?: string }[]
}

export function fromGeneric(file: GenericFile, fallbackName = 'dataset'): EvalSet {
  const items: EvalItem[] = file.memories.map((m) => ({
    keys: [m.id],
    text: m.text,
    ...(m.type ? { type: m.type } : {}),
    ...(m.tags ? { tags: m.tags } : {}),
    ...(m.createdAt ? { meta: { createdAt: m.createdAt } } : {}),
  }))
  const ids = new Set(file.memories.map((m) => m.id))
  const skipped: Record<string, number> = {}
  const questions: EvalQuestion[] = []
  for (const q of file.queries) {
    const relevant = q.relevant.filter((id) => ids.has(id))
    if (relevant.length === 0) {
      skipped['no relevant memory'] = (skipped['no relevant memory'] ?? 0) + 1
      continue
    }
    questions.push({ query: q.q, relevant, kind: q.kind ?? 'other' })
  }
  return {
    name: file.name ?? fallbackName,
    format: 'generic',
    unit: 'turns',
    stores: [{ name: file.name ?? fallbackName, items, questions }],
    skipped,
    apart: [],
  }
}

// ---------------------------------------------------------------- LoCoMo

interface LocomoTurn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}

export interface LocomoConversation {
  sample_id?: string
  conversation: Record<string, unknown>
  observation?: Record<string, Record<string, [string, string | string[]][]>>
  qa: { question: string; evidence?: string[]; category: number }[]
}

const DIA_ID = /^D:?0*(\d+):0*(\d+)$/

/**
 * A dia_id in its canonical form (`D11:26`), or null when the text names no turn at all.
 *
 * @example
 * ['D:11:26', 'D30:05', 'D4:3', 'D', ''].map(normalizeDiaId)
 * // => ['D11:26', 'D30:5', 'D4:3', null, null]
 */
export function normalizeDiaId(raw: string): string | null {
  const match = DIA_ID.exec(raw.trim())
  return match ? `D${Number(match[1])}:${Number(match[2])}` : null
}

/**
 * LoCoMo evidence as the README asks: entries split on `;` and whitespace, each normalised
 * ({@link normalizeDiaId}), ids that name no turn of the conversation dropped, duplicates
 * removed, order kept.
 *
 * @example
 * cleanEvidence(['D8:6; D9:17', 'D', 'D:1:3', 'D99:1'], new Set(['D8:6', 'D9:17', 'D1:3']))
 * // => ['D8:6', 'D9:17', 'D1:3']
 */
export function cleanEvidence(evidence: readonly string[], turns: ReadonlySet<string>): string[] {
  const out: string[] = []
  for (const entry of evidence) {
    for (const piece of entry.split(/[;\s]+/)) {
      const id = normalizeDiaId(piece)
      if (id !== null && turns.has(id) && !out.includes(id)) out.push(id)
    }
  }
  return out
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/**
 * A LoCoMo session time (`1:56 pm on 8 May, 2023`) as an ISO date, or null if unreadable.
 *
 * @example
 * sessionDate('1:56 pm on 8 May, 2023') // => '2023-05-08'
 */
export function sessionDate(text: string): string | null {
  const match = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(text)
  if (!match) return null
  const month = MONTHS.indexOf(match[2]!.toLowerCase())
  if (month < 0) return null
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${match[3]}-${pad(month + 1)}-${pad(Number(match[1]))}`
}

function dateFields(
  date: string | null,
  shape: LocomoShape,
): { tags: string[]; suffix: string; meta: Record<string, unknown> } {
  if (date === null) return { tags: [], suffix: '', meta: {} }
  const [year, month, day] = date.split('-')
  const name = MONTHS[Number(month) - 1]!
  return {
    tags: shape.dates === 'tags' ? [name, year!] : [],
    suffix:
      shape.dates === 'text'
        ? ` (${Number(day)} ${name[0]!.toUpperCase()}${name.slice(1)} ${year})`
        : '',
    meta: { date },
  }
}

function sessions(conversation: Record<string, unknown>): { n: number; turns: LocomoTurn[] }[] {
  const out: { n: number; turns: LocomoTurn[] }[] = []
  for (const [key, value] of Object.entries(conversation)) {
    const match = /^session_(\d+)$/.exec(key)
    if (match && Array.isArray(value)) out.push({ n: Number(match[1]), turns: value })
  }
  return out.sort((a, b) => a.n - b.n)
}

export function fromLocomo(
  conversations: LocomoConversation[],
  name: string,
  unit: Unit,
  shape: LocomoShape = DEFAULT_LOCOMO_SHAPE,
): EvalSet {
  const skipped: Record<string, number> = {}
  const stores: EvalStore[] = conversations.map((c, index) => {
    const storeSkipped: Record<string, number> = {}
    const skip = (reason: string) => {
      skipped[reason] = (skipped[reason] ?? 0) + 1
      storeSkipped[reason] = (storeSkipped[reason] ?? 0) + 1
    }
    const dates = new Map<number, string | null>()
    const turnIds = new Set<string>()
    const turnItems: EvalItem[] = []
    for (const { n, turns } of sessions(c.conversation)) {
      const date = sessionDate(String(c.conversation[`session_${n}_date_time`] ?? ''))
      dates.set(n, date)
      const when = dateFields(date, shape)
      for (const turn of turns) {
        const id = normalizeDiaId(turn.dia_id)
        if (id === null) continue
        turnIds.add(id)
        const caption = shape.captions && turn.blip_caption ? ` [image: ${turn.blip_caption}]` : ''
        const prefixed = shape.speaker === 'text' || shape.speaker === 'text+tag'
        const tags = [...when.tags]
        if (shape.speaker === 'tag' || shape.speaker === 'text+tag') tags.push(turn.speaker)
        turnItems.push({
          keys: [id],
          text: `${prefixed ? `${turn.speaker}: ` : ''}${turn.text}${caption}${when.suffix}`,
          ...(tags.length > 0 ? { tags } : {}),
          ...(shape.speaker === 'alias' ? { aliases: [turn.speaker] } : {}),
          meta: { ...when.meta, session: n, speaker: turn.speaker, diaId: id },
        })
      }
    }
    const items = unit === 'turns' ? turnItems : observations(c, turnIds, dates, shape)
    const credited = new Set(items.flatMap((item) => item.keys))
    const questions: EvalQuestion[] = []
    for (const qa of c.qa) {
      const relevant = cleanEvidence(qa.evidence ?? [], turnIds)
      if (relevant.length === 0) {
        skip('no evidence after cleaning')
        continue
      }
      if (!relevant.some((id) => credited.has(id))) {
        skip('no observation cites the evidence')
        continue
      }
      questions.push({ query: qa.question, relevant, kind: String(qa.category) })
    }
    return {
      name: c.sample_id ?? `conversation ${index + 1}`,
      items,
      questions,
      skipped: storeSkipped,
    }
  })
  return { name, format: 'locomo', unit, stores, skipped, apart: [ADVERSARIAL] }
}

/** Each observation fact a memory of its own, credited with the turns it cites. */
function observations(
  c: LocomoConversation,
  turnIds: ReadonlySet<string>,
  dates: ReadonlyMap<number, string | null>,
  shape: LocomoShape,
): EvalItem[] {
  const items: EvalItem[] = []
  for (const [key, bySpeaker] of Object.entries(c.observation ?? {})) {
    const n = Number(/^session_(\d+)_observation$/.exec(key)?.[1] ?? Number.NaN)
    const when = dateFields(dates.get(n) ?? null, shape)
    for (const [speaker, facts] of Object.entries(bySpeaker)) {
      for (const [fact, cited] of facts) {
        const keys = cleanEvidence(Array.isArray(cited) ? cited : [cited], turnIds)
        const tags = [...when.tags]
        if (shape.speaker === 'tag' || shape.speaker === 'text+tag') tags.push(speaker)
        items.push({
          keys,
          text: `${fact}${when.suffix}`,
          ...(tags.length > 0 ? { tags } : {}),
          ...(shape.speaker === 'alias' ? { aliases: [speaker] } : {}),
          meta: { ...when.meta, session: n, speaker },
        })
      }
    }
  }
  return items
}

/**
 * The learned stage of the poison screen: a linear model over hashed n-grams
 * ({@link featuresOf}), trained by `npm run train:poison` and shipped as int8 weights
 * (`weights.ts`, no download). It catches free wording the cue tables were never written for
 * (task hijacking, requests to splice code in, personas); the rules keep what a linear model
 * misses (padding, encodings, hidden characters), and the two add up to one verdict.
 *
 * Integer sums over integer counts, one power-of-two scale, one square root: the same text gives
 * the same logit on every platform.
 */
import { decodeBase64 } from '../decode.ts'
import {
  FEATURE_BUCKETS,
  type Features,
  featuresOf,
  type QuantisedModel,
  ReadingWeights,
  weightOf,
} from './features.ts'
import { LEARNED_WEIGHTS } from './weights.ts'

/** A quantised model with its calibration: `probability = σ(logit + offset)`. */
export interface LearnedModel extends QuantisedModel {
  /** Moves the logit so the screen's one threshold holds the chosen false-positive rate. */
  offset: number
}

/** Readings longer than this are scored a window at a time, half-overlapping. */
export const LEARNED_WINDOW = 240
const STRIDE = LEARNED_WINDOW / 2

/** A sentence ends at `.`, `!`, `?` (or their CJK forms) before a space, or at a line break. */
const SENTENCE_END = /[.!?\u3002\uff01\uff1f]+(?:\s+|$)|\n+/g
/** Shorter sentences say too little alone to be scored alone. */
const MIN_SENTENCE = 24

/**
 * The windows of a reading the model scores: the whole reading when it is short, else windows
 * of at most {@link LEARNED_WINDOW} characters on word boundaries, every {@link STRIDE}, and
 * each sentence on its own. The verdict is the best window's, so an instruction in a long page
 * is not averaged away by the page around it; training reads the same windows.
 */
export function windowsOf(read: string): { at: number; text: string }[] {
  if (read.length <= LEARNED_WINDOW) return [{ at: 0, text: read }]
  const out: { at: number; text: string }[] = []
  let from = 0
  SENTENCE_END.lastIndex = 0
  for (let m = SENTENCE_END.exec(read); ; m = SENTENCE_END.exec(read)) {
    const end = m ? m.index + m[0].length : read.length
    const sentence = read.slice(from, end).trim()
    if (sentence.length >= MIN_SENTENCE && sentence.length < LEARNED_WINDOW) {
      out.push({ at: from, text: sentence })
    }
    if (!m || end >= read.length) break
    from = end
  }
  for (let start = 0; start < read.length; start += STRIDE) {
    const from = start === 0 ? 0 : read.indexOf(' ', start) + 1 || read.length
    let to = Math.min(read.length, from + LEARNED_WINDOW)
    if (to < read.length) {
      const space = read.lastIndexOf(' ', to)
      if (space > from) to = space
    }
    if (to > from) out.push({ at: from, text: read.slice(from, to) })
    if (to >= read.length) break
  }
  return out
}

let shipped: LearnedModel | null = null

/** The committed model, decoded on first use. */
export function shippedModel(): LearnedModel {
  if (shipped) return shipped
  const bytes = decodeBase64(LEARNED_WEIGHTS.weights)
  if (!bytes || bytes.length !== FEATURE_BUCKETS) {
    throw new Error(`learned poison weights: expected ${FEATURE_BUCKETS} bytes`)
  }
  shipped = {
    weights: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    shift: LEARNED_WEIGHTS.shift,
    bias: LEARNED_WEIGHTS.bias,
    offset: LEARNED_WEIGHTS.offset,
  }
  return shipped
}

/** The model's raw logit for one text's features. */
export function logitOf(features: Features, model: QuantisedModel): number {
  if (features.total === 0) return model.bias
  let sum = 0
  const { buckets, counts } = features
  for (let k = 0; k < buckets.length; k++) {
    sum += (model.weights[buckets[k] as number] as number) * (counts[k] as number)
  }
  return model.bias + sum / 2 ** model.shift / Math.sqrt(features.total)
}

/** The learned verdict on one reading: the best window's logit and where that window starts. */
export interface LearnedScore {
  logit: number
  /** Start of the best window in the reading (0 for a short text). */
  at: number
  /** The window the logit came from. */
  window: string
}

/** Scores a reading ({@link readingOf}): the best of its {@link windowsOf}. */
export function scoreReading(read: string, model: QuantisedModel = shippedModel()): LearnedScore {
  let best: LearnedScore = { logit: Number.NEGATIVE_INFINITY, at: 0, window: '' }
  const windows = windowsOf(read)
  const reading = windows.length > 1 ? new ReadingWeights(read, model.weights) : null
  for (const { at, text } of windows) {
    // A sentence's `at` is where it began before its leading space was trimmed.
    const from = read.startsWith(text, at) ? at : read.indexOf(text, at)
    const { sum, total } = reading
      ? reading.window(from, from + text.length)
      : weightOf(text, model.weights)
    const logit = total === 0 ? model.bias : model.bias + sum / 2 ** model.shift / Math.sqrt(total)
    if (logit > best.logit) best = { logit, at, window: text }
  }
  return best
}

/** The calibrated probability, rounded to 1e-3 so platforms agree on what is reported. */
export function probabilityOf(logit: number, model: LearnedModel = shippedModel()): number {
  return Math.round(1000 / (1 + Math.exp(-(logit + model.offset)))) / 1000
}

/**
 * The word n-grams that weighed most towards "attack" in `window`, strongest first: what a
 * finding shows instead of a rule's excerpt.
 */
export function topNgrams(
  window: string,
  count = 3,
  model: QuantisedModel = shippedModel(),
): string[] {
  const features = featuresOf(window, true)
  const words = features.words ?? new Map<number, string>()
  const scored: [string, number][] = []
  for (const [bucket, text] of words) {
    const w = model.weights[bucket] as number
    if (w > 0) scored.push([text, w])
  }
  scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  return scored.slice(0, count).map(([text]) => text)
}

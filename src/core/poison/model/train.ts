/**
 * Training the learned stage: logistic regression over {@link featuresOf}, by AdaGrad in a fixed
 * order (a seeded shuffle per epoch), so the same examples and seed give the same weights bit
 * for bit. Then quantised to int8 with a power-of-two scale, the form that ships. Pure; used by
 * `scripts/train-poison.ts` and its reproduction test.
 */
import {
  FEATURE_BUCKETS,
  type Features,
  featuresOf,
  type QuantisedModel,
  readable,
} from './features.ts'
import { windowsOf } from './learned.ts'

export type { QuantisedModel } from './features.ts'

/** One labelled text. */
export interface Example {
  text: string
  /** 1: an attack; 0: benign. */
  label: 0 | 1
  /** How much this example's updates count, on top of its class's weight. @default 1 */
  weight?: number
}

/** How a model is trained; every field has a default the shipped weights were trained with. */
export interface TrainOptions {
  /** Passes over the examples. @default 8 */
  epochs?: number
  /** AdaGrad's base step. @default 0.5 */
  rate?: number
  /** L2 penalty per update, on the weights an example touches. @default 1e-4 */
  l2?: number
  /** Seeds the per-epoch shuffle. @default 24 */
  seed?: number
  /** The attack class's weight against the benign class's, once both count alike. @default 1 */
  attackWeight?: number
}

export const TRAIN_DEFAULTS: Required<TrainOptions> = {
  epochs: 8,
  rate: 0.5,
  l2: 1e-4,
  seed: 24,
  attackWeight: 1,
}

/** Float weights, before quantising. */
export interface FloatModel {
  weights: Float64Array
  bias: number
}

/** A small, fast, seeded generator (mulberry32); the same seed gives the same stream anywhere. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

/** The features of each example's windows ({@link windowsOf}), computed once. */
export function featurise(examples: readonly Example[]): Features[][] {
  return examples.map((example) =>
    windowsOf(readable(example.text)).map((window) => featuresOf(window.text)),
  )
}

/**
 * Trains on `examples` (features from {@link featurise}). Classes are weighted to count alike,
 * so the bias does not simply follow the share of attacks in the training set.
 *
 * A text is as suspicious as its worst window, so after {@link WHOLE_EPOCHS} epochs on whole
 * texts each step updates only the example's best-scoring window (multiple-instance learning):
 * an attack planted in an e-mail teaches the injection, not the e-mail around it.
 */
export function train(
  examples: readonly Example[],
  features: readonly Features[][],
  options: TrainOptions = {},
): FloatModel {
  const { epochs, rate, l2, seed, attackWeight } = { ...TRAIN_DEFAULTS, ...options }
  const weights = new Float64Array(FEATURE_BUCKETS)
  const squares = new Float64Array(FEATURE_BUCKETS)
  let bias = 0
  let biasSquares = 0
  const attacks = examples.filter((e) => e.label === 1).length
  const benign = examples.length - attacks
  const classWeight = [
    examples.length / (2 * Math.max(1, benign)),
    (examples.length / (2 * Math.max(1, attacks))) * attackWeight,
  ]
  const order = examples.map((_, i) => i)
  const random = seeded(seed)
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      const swap = order[i] as number
      order[i] = order[j] as number
      order[j] = swap
    }
    for (const index of order) {
      const windows = features[index] as Features[]
      const example = examples[index] as Example
      const label = example.label
      const whole = epoch < WHOLE_EPOCHS
      let f = whole && windows.length > 1 ? merge(windows) : (windows[0] as Features)
      let z = logit(f, weights, bias)
      if (!whole) {
        for (const window of windows) {
          const zw = logit(window, weights, bias)
          if (zw > z) {
            z = zw
            f = window
          }
        }
      }
      const inv = f.total > 0 ? 1 / Math.sqrt(f.total) : 0
      const g = (sigmoid(z) - label) * (classWeight[label] as number) * (example.weight ?? 1)
      for (let k = 0; k < f.buckets.length; k++) {
        const b = f.buckets[k] as number
        const w = weights[b] as number
        const grad = g * (f.counts[k] as number) * inv + l2 * w
        const s = (squares[b] as number) + grad * grad
        squares[b] = s
        weights[b] = w - (rate * grad) / Math.sqrt(s + 1e-8)
      }
      biasSquares += g * g
      bias -= (rate * g) / Math.sqrt(biasSquares + 1e-8)
    }
  }
  return { weights, bias }
}

/** Epochs on whole texts before training moves to best windows. */
const WHOLE_EPOCHS = 2

function logit(f: Features, weights: Float64Array, bias: number): number {
  const inv = f.total > 0 ? 1 / Math.sqrt(f.total) : 0
  let z = bias
  for (let k = 0; k < f.buckets.length; k++) {
    z += (weights[f.buckets[k] as number] as number) * (f.counts[k] as number) * inv
  }
  return z
}

/** Windows' features summed into one (the whole text, overlaps counted twice). */
function merge(windows: readonly Features[]): Features {
  const counts = new Map<number, number>()
  for (const w of windows) {
    for (let k = 0; k < w.buckets.length; k++) {
      const b = w.buckets[k] as number
      counts.set(b, (counts.get(b) ?? 0) + (w.counts[k] as number))
    }
  }
  const buckets = Int32Array.from([...counts.keys()].sort((a, b) => a - b))
  const values = Int32Array.from(buckets, (b) => counts.get(b) ?? 0)
  let total = 0
  for (const c of values) total += c
  return { buckets, counts: values, total }
}

/** int8 weights with the largest power-of-two scale that fits them; the bias kept to 1e-6. */
export function quantise(model: FloatModel): QuantisedModel {
  let max = 0
  for (const w of model.weights) max = Math.max(max, Math.abs(w))
  const shift = max > 0 ? Math.floor(Math.log2(127 / max)) : 0
  const factor = 2 ** shift
  const weights = new Int8Array(model.weights.length)
  for (let i = 0; i < weights.length; i++) {
    weights[i] = Math.round((model.weights[i] as number) * factor)
  }
  return { weights, shift, bias: Math.round(model.bias * 1e6) / 1e6 }
}

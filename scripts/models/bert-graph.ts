/**
 * A BERT encoder as a plain ONNX graph (opset 17): word + position + token-type embeddings,
 * LayerNorm, then per layer multi-head self-attention with an additive padding mask, residual +
 * LayerNorm, an erf-GELU feed-forward block, residual + LayerNorm. Output `last_hidden_state`.
 * Initialiser names follow Hugging Face's BertModel so the graph reads like an optimum export.
 */

import { GraphBuilder } from './onnx.ts'
import { hashSeed, normal } from './rng.ts'

export interface BertShape {
  layers: number
  hidden: number
  heads: number
  intermediate: number
  vocabSize: number
  maxPositions: number
  typeVocabSize: number
  layerNormEps: number
}

/** Standard deviations of the seeded N(0, std²) initialisation. Biases start at 0, LayerNorm at 1/0. */
export interface BertInit {
  seed: number
  word: number
  position: number
  tokenType: number
  dense: number
}

/** Added to attention scores at padded positions; exp() of it underflows to exactly 0 in float32. */
const MASK_BIAS = -10000

export function buildBertGraph(shape: BertShape, init: BertInit): GraphBuilder {
  const { hidden: H, heads, intermediate: I } = shape
  if (shape.layers < 1) throw new Error('a BERT encoder needs at least one layer')
  if (H % heads !== 0) throw new Error(`hidden ${H} is not divisible by ${heads} heads`)
  const headDim = H / heads
  const g = new GraphBuilder()
  const dims = ['batch_size', 'sequence_length']
  const inputIds = g.input('input_ids', 'int64', dims)
  const attentionMask = g.input('attention_mask', 'int64', dims)
  const tokenTypeIds = g.input('token_type_ids', 'int64', dims)

  const random = (name: string, rows: number, cols: number, std: number) =>
    g.initializer(name, [rows, cols], normal(hashSeed(`${init.seed}:${name}`), rows * cols, std))
  const filled = (name: string, size: number, value: number) =>
    g.initializer(name, [size], new Float32Array(size).fill(value))

  const layerNorm = (x: string, prefix: string, output?: string) =>
    g.node(
      'LayerNormalization',
      [x, filled(`${prefix}.weight`, H, 1), filled(`${prefix}.bias`, H, 0)],
      { axis: { i: -1 }, epsilon: { f: shape.layerNormEps } },
      output,
    )
  const linear = (x: string, prefix: string, inSize: number, outSize: number) =>
    g.node('Add', [
      g.node('MatMul', [x, random(`${prefix}.weight`, inSize, outSize, init.dense)]),
      filled(`${prefix}.bias`, outSize, 0),
    ])

  // Embeddings
  const word = g.node('Gather', [
    random('embeddings.word_embeddings.weight', shape.vocabSize, H, init.word),
    inputIds,
  ])
  const seqLen = g.node('Shape', [inputIds], { start: { i: 1 }, end: { i: 2 } })
  const zero = g.int64s('const.zero', [0])
  const positions = g.node('Slice', [
    random('embeddings.position_embeddings.weight', shape.maxPositions, H, init.position),
    zero,
    seqLen,
    zero,
  ])
  const types = g.node('Gather', [
    random('embeddings.token_type_embeddings.weight', shape.typeVocabSize, H, init.tokenType),
    tokenTypeIds,
  ])
  let x = layerNorm(
    g.node('Add', [g.node('Add', [word, positions]), types]),
    'embeddings.LayerNorm',
  )

  // [batch, seq] 1/0 mask -> [batch, 1, 1, seq] additive bias
  const one = g.scalar('const.one', 1)
  const maskFloat = g.node('Cast', [attentionMask], { to: { i: 1 } })
  const maskBias = g.node('Unsqueeze', [
    g.node('Mul', [g.node('Sub', [one, maskFloat]), g.scalar('const.mask_bias', MASK_BIAS)]),
    g.int64s('const.axes_1_2', [1, 2]),
  ])
  const splitHeads = g.int64s('const.split_heads', [0, 0, heads, headDim])
  const mergeHeads = g.int64s('const.merge_heads', [0, 0, H])
  const scale = g.scalar('const.attention_scale', 1 / Math.sqrt(headDim))
  const sqrt2 = g.scalar('const.sqrt2', Math.SQRT2)
  const half = g.scalar('const.half', 0.5)

  for (let l = 0; l < shape.layers; l++) {
    const p = `encoder.layer.${l}`
    const project = (name: string, perm: number[]) =>
      g.node(
        'Transpose',
        [g.node('Reshape', [linear(x, `${p}.attention.self.${name}`, H, H), splitHeads])],
        { perm: { ints: perm } },
      )
    const q = project('query', [0, 2, 1, 3])
    const kT = project('key', [0, 2, 3, 1])
    const v = project('value', [0, 2, 1, 3])
    const scores = g.node('Add', [g.node('Mul', [g.node('MatMul', [q, kT]), scale]), maskBias])
    const probs = g.node('Softmax', [scores], { axis: { i: -1 } })
    const context = g.node('Reshape', [
      g.node('Transpose', [g.node('MatMul', [probs, v])], { perm: { ints: [0, 2, 1, 3] } }),
      mergeHeads,
    ])
    const attended = linear(context, `${p}.attention.output.dense`, H, H)
    x = layerNorm(g.node('Add', [attended, x]), `${p}.attention.output.LayerNorm`)

    const up = linear(x, `${p}.intermediate.dense`, H, I)
    // GELU(u) = 0.5 · u · (1 + erf(u / √2)), as PyTorch's exact GELU exports.
    const gelu = g.node('Mul', [
      g.node('Mul', [up, g.node('Add', [g.node('Erf', [g.node('Div', [up, sqrt2])]), one])]),
      half,
    ])
    const down = linear(gelu, `${p}.output.dense`, I, H)
    const last = l === shape.layers - 1
    x = layerNorm(
      g.node('Add', [down, x]),
      `${p}.output.LayerNorm`,
      last ? 'last_hidden_state' : undefined,
    )
  }
  g.output('last_hidden_state', 'float', [...dims, H])
  return g
}

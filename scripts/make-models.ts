/**
 * Generates BERT-architecture ONNX models with seeded random weights, laid out the way
 * transformers.js loads a model from a local directory or a self-hosted base URL:
 *
 *   <out>/<model id>/config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx
 *
 * Usage: tsx scripts/make-models.ts [tiny|bge-small|all] [--out .models]
 *
 * The weights are random, so the vectors mean nothing; what matters is that the real
 * tokenizer, ONNX Runtime and pooling run, at the real model's cost for `bge-small`.
 */

import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BGE_SMALL_SHAPED_TEST_MODEL, TINY_TEST_MODEL } from '../src/embedder/model-table.ts'
import { type BertInit, type BertShape, buildBertGraph } from './models/bert-graph.ts'
import { buildVocab, tokenizerConfigJson, tokenizerJson } from './models/vocab.ts'

/** Bump when the output of any preset changes; stale models are then rebuilt. */
export const GENERATOR_VERSION = 1

export const DEFAULT_OUT_DIR = '.models'

export type PresetName = 'tiny' | 'bge-small'

export interface ModelPreset {
  /** The model id: the directory under the output folder and the id the embedder is given. */
  id: string
  shape: Omit<BertShape, 'vocabSize'>
  /** Pad the vocabulary with `[unusedN]` entries to this size; the real pieces otherwise. */
  vocabSize?: number
  init: BertInit
}

export const PRESETS: Readonly<Record<PresetName, ModelPreset>> = Object.freeze({
  tiny: {
    id: TINY_TEST_MODEL,
    shape: {
      layers: 2,
      hidden: 64,
      heads: 4,
      intermediate: 128,
      maxPositions: 512,
      typeVocabSize: 2,
      layerNormEps: 1e-12,
    },
    // Word embeddings dominate position embeddings so that mean-pooled vectors of texts that
    // share words are close and those of texts that do not are not.
    init: { seed: 1, word: 0.05, position: 0.01, tokenType: 0.01, dense: 0.08 },
  },
  'bge-small': {
    id: BGE_SMALL_SHAPED_TEST_MODEL,
    shape: {
      layers: 12,
      hidden: 384,
      heads: 12,
      intermediate: 1536,
      maxPositions: 512,
      typeVocabSize: 2,
      layerNormEps: 1e-12,
    },
    vocabSize: 30522,
    init: { seed: 2, word: 0.02, position: 0.02, tokenType: 0.02, dense: 0.02 },
  },
})

const STAMP_FILE = 'engram-model.json'
const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']

interface Stamp {
  generator: number
  preset: PresetName
  spec: string
}

function stampFor(name: PresetName): Stamp {
  return { generator: GENERATOR_VERSION, preset: name, spec: JSON.stringify(PRESETS[name]) }
}

function isPreset(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name)
}

async function isUpToDate(dir: string, name: PresetName): Promise<boolean> {
  try {
    const stamp = JSON.parse(await readFile(join(dir, STAMP_FILE), 'utf8')) as Stamp
    const want = stampFor(name)
    if (stamp.generator !== want.generator || stamp.spec !== want.spec) return false
    await Promise.all(MODEL_FILES.map((f) => stat(join(dir, f))))
    return true
  } catch {
    return false
  }
}

function configJson(preset: ModelPreset, vocabSize: number): object {
  const s = preset.shape
  return {
    _name_or_path: preset.id,
    architectures: ['BertModel'],
    model_type: 'bert',
    attention_probs_dropout_prob: 0.1,
    hidden_act: 'gelu',
    hidden_dropout_prob: 0.1,
    hidden_size: s.hidden,
    initializer_range: preset.init.dense,
    intermediate_size: s.intermediate,
    layer_norm_eps: s.layerNormEps,
    max_position_embeddings: s.maxPositions,
    num_attention_heads: s.heads,
    num_hidden_layers: s.layers,
    pad_token_id: 0,
    position_embedding_type: 'absolute',
    type_vocab_size: s.typeVocabSize,
    vocab_size: vocabSize,
    // Only fp32 weights exist; without this, transformers.js on WASM would ask for q8.
    'transformers.js_config': { dtype: 'fp32' },
  }
}

export interface GeneratedModel {
  dir: string
  /** Size of onnx/model.onnx. */
  onnxBytes: number
  ms: number
}

/** Writes the preset's files into `dir` (which must not exist yet). */
async function generate(name: PresetName, dir: string): Promise<GeneratedModel> {
  const started = performance.now()
  const preset = PRESETS[name]
  const vocab = buildVocab(preset.vocabSize)
  const maxLength = preset.shape.maxPositions
  const graph = buildBertGraph({ ...preset.shape, vocabSize: vocab.length }, preset.init)
  const onnx = graph.toModel(preset.id, String(GENERATOR_VERSION)).toBytes()
  await mkdir(join(dir, 'onnx'), { recursive: true })
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`
  await writeFile(join(dir, 'onnx', 'model.onnx'), onnx)
  await writeFile(join(dir, 'config.json'), json(configJson(preset, vocab.length)))
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab, maxLength)))
  await writeFile(join(dir, 'tokenizer_config.json'), json(tokenizerConfigJson(maxLength)))
  await writeFile(join(dir, STAMP_FILE), json(stampFor(name)))
  return { dir, onnxBytes: onnx.length, ms: performance.now() - started }
}

/**
 * Makes sure the preset's model exists and is current under `outDir`; builds it if not.
 * Returns the model's directory (`<outDir>/<model id>`, absolute). Safe to call from several
 * processes at once: each builds into its own temporary folder and renames it into place.
 */
export async function ensureModel(name: PresetName, outDir = DEFAULT_OUT_DIR): Promise<string> {
  return (await buildModel(name, outDir)).dir
}

/** {@link ensureModel}, also saying whether it built the model and how long that took. */
export async function buildModel(
  name: PresetName,
  outDir = DEFAULT_OUT_DIR,
  force = false,
): Promise<GeneratedModel & { built: boolean }> {
  if (!isPreset(name)) {
    throw new TypeError(`unknown model preset ${JSON.stringify(name)}: expected tiny or bge-small`)
  }
  const dir = resolve(outDir, PRESETS[name].id)
  if (!force && (await isUpToDate(dir, name))) return { dir, onnxBytes: 0, ms: 0, built: false }
  const temp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`
  try {
    const made = await generate(name, temp)
    await rm(dir, { recursive: true, force: true })
    try {
      await rename(temp, dir)
    } catch (error) {
      // Another process renamed its copy in first; the generator is deterministic, so theirs
      // is the same model.
      if (!(await isUpToDate(dir, name))) throw error
    }
    return { ...made, dir, built: true }
  } finally {
    await rm(temp, { recursive: true, force: true })
  }
}

async function main(argv: string[]): Promise<void> {
  let outDir = DEFAULT_OUT_DIR
  let force = false
  const names: PresetName[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--out') outDir = argv[++i] ?? outDir
    else if (arg === '--force') force = true
    else if (arg === 'all') names.push('tiny', 'bge-small')
    else if (isPreset(arg)) names.push(arg)
    else
      throw new TypeError(
        `unknown argument ${JSON.stringify(arg)}: expected tiny, bge-small, all, --out DIR or --force`,
      )
  }
  if (names.length === 0) names.push('tiny')
  for (const name of new Set(names)) {
    const made = await buildModel(name, outDir, force)
    if (made.built) {
      const mb = (made.onnxBytes / 2 ** 20).toFixed(2)
      console.log(`${name}: wrote ${made.dir} (model.onnx ${mb} MiB) in ${made.ms.toFixed(0)} ms`)
    } else {
      console.log(`${name}: ${made.dir} is up to date`)
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  })
}

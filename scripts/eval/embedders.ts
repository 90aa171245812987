/**
 * The embedders `npm run eval --embedder NAME` can use: `ngram` (the hashed test embedder),
 * `use` (USE-lite from node_modules), `tiny` (the generated test model), or a transformers.js
 * model id or folder. Real models are wrapped in the on-disk {@link CachedEmbedder}.
 */
import { existsSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { Embedder } from '../../src/core/types.ts'
import { TINY_TEST_MODEL } from '../../src/embedder/model-table.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { DEFAULT_OUT_DIR, ensureModel } from '../make-models.ts'
import { CachedEmbedder } from './embed-cache.ts'

export async function makeEmbedder(
  name: string,
  modelsDir?: string,
  cache = true,
): Promise<Embedder> {
  if (name === 'ngram') return new NgramEmbedder()
  if (name === 'use') {
    const { UseEmbedder } = await import('../../src/embedder/use-embedder.ts')
    const use = new UseEmbedder()
    return cache ? new CachedEmbedder(use, { sameForQueries: true }) : use
  }
  const model = await makeTransformersEmbedder(name, modelsDir)
  return cache && name !== 'tiny' ? new CachedEmbedder(model) : model
}

async function makeTransformersEmbedder(
  name: string,
  modelsDir: string | undefined,
): Promise<Embedder> {
  const { TransformersEmbedder } = await import('../../src/embedder/transformers-embedder.ts')
  if (name === 'tiny') {
    await ensureModel('tiny', DEFAULT_OUT_DIR)
    return new TransformersEmbedder({
      model: TINY_TEST_MODEL,
      localDir: resolve(DEFAULT_OUT_DIR),
      allowRemote: false,
      device: 'cpu',
    })
  }
  // A model folder given by path (config.json, tokenizer.json, onnx/model.onnx inside): its
  // name is the model id, looked up under its parent.
  if (existsSync(join(name, 'config.json'))) {
    const dir = resolve(name)
    return new TransformersEmbedder({
      model: basename(dir),
      localDir: dirname(dir),
      allowRemote: false,
      device: 'cpu',
    })
  }
  return new TransformersEmbedder({
    model: name,
    device: 'cpu',
    ...(modelsDir ? { localDir: resolve(modelsDir), allowRemote: false } : {}),
  })
}

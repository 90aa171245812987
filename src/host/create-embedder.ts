import { InvalidInputError } from '../core/errors.ts'
import type { Embedder, MemoryEventListener } from '../core/types.ts'
import { type ChainLink, FallbackEmbedder } from '../embedder/fallback-embedder.ts'
import { modelReachable, type ProbeEnvironment } from '../embedder/model-reachable.ts'
import { USE_LITE_MODEL } from '../embedder/model-table.ts'
import { NgramEmbedder } from '../embedder/ngram-embedder.ts'
import { DEFAULT_MODEL, type EmbedderChoice, type UseChoice } from './protocol.ts'

type TransformersChoice = Extract<EmbedderChoice, { kind: 'transformers' }>

/**
 * Builds the embedder a {@link EmbedderChoice} names; without a choice, the product default
 * (transformers.js with bge-small). transformers.js and TF.js are imported only when chosen, so
 * each is a lazy chunk that other memories never download.
 *
 * A transformers choice becomes the model chain (`FallbackEmbedder`): the configured model, then
 * USE-lite (its `fallback`), then keywords. Before returning it asks whether the configured
 * model can be fetched or is cached (`modelReachable`), so an offline open starts on USE-lite at
 * once and the engine opens under the model that will answer.
 *
 * @example
 * const embedder = await createEmbedder({ kind: 'transformers' }) // with the hub unreachable
 * embedder.model // => 'google/universal-sentence-encoder-lite'
 * embedder.stats().fallback // => { from: 'Xenova/bge-small-en-v1.5', reason: 'unreachable', error: '…' }
 */
export async function createEmbedder(
  choice: EmbedderChoice | undefined,
  onEvent?: MemoryEventListener,
  probe?: ProbeEnvironment,
): Promise<Embedder | undefined> {
  switch (choice?.kind ?? 'transformers') {
    case 'none':
      return undefined
    case 'ngram':
      return new NgramEmbedder({ dims: choice?.kind === 'ngram' ? choice.dims : undefined })
    case 'transformers':
      return modelChain((choice ?? { kind: 'transformers' }) as TransformersChoice, onEvent, probe)
    case 'use':
      return useLite(choice as UseChoice, onEvent)
    default:
      throw new InvalidInputError(
        'BAD_OPTION',
        'embedder.kind',
        `expected 'none', 'ngram', 'transformers' or 'use', got ${JSON.stringify(choice?.kind)}`,
      )
  }
}

async function modelChain(
  c: TransformersChoice,
  onEvent: MemoryEventListener | undefined,
  probe: ProbeEnvironment | undefined,
): Promise<Embedder> {
  const model = c.model ?? DEFAULT_MODEL
  const allowRemote = c.allowRemote ?? true
  const configured: ChainLink = { model, create: () => transformers(c, model, onEvent) }
  const fallback = c.fallback ?? { kind: 'use' }
  if (fallback === false) return configured.create()
  if (fallback?.kind !== 'use') {
    throw new InvalidInputError(
      'BAD_OPTION',
      'embedder.fallback',
      `expected { kind: 'use' } or false, got ${JSON.stringify(fallback)}`,
    )
  }
  const links = [configured, { model: USE_LITE_MODEL, create: () => useLite(fallback, onEvent) }]
  const reach = await modelReachable({ model, modelBase: c.modelBase, allowRemote }, probe)
  if (reach.reachable) return new FallbackEmbedder(links)
  return new FallbackEmbedder(links, 1, { from: model, reason: 'unreachable', error: reach.error })
}

async function transformers(
  c: TransformersChoice,
  model: string,
  onEvent: MemoryEventListener | undefined,
): Promise<Embedder> {
  const { TransformersEmbedder } = await import('../embedder/transformers-embedder.ts')
  return new TransformersEmbedder({
    model,
    modelBase: c.modelBase,
    allowRemote: c.allowRemote ?? true,
    device: c.device ?? 'auto',
    dtype: c.dtype,
    wasmPaths: c.wasmPaths,
    onProgress: (p) => onEvent?.({ type: 'model-progress', ...p }),
  })
}

async function useLite(c: UseChoice, onEvent: MemoryEventListener | undefined): Promise<Embedder> {
  const { UseEmbedder } = await import('../embedder/use-embedder.ts')
  return new UseEmbedder({
    modelUrl: c.modelUrl,
    wasmPaths: c.wasmPaths,
    onProgress: (p) => onEvent?.({ type: 'model-progress', ...p }),
  })
}

import { InvalidInputError } from '../core/errors.ts'
import type { Embedder, MemoryEventListener } from '../core/types.ts'
import { NgramEmbedder } from '../embedder/ngram-embedder.ts'
import { DEFAULT_MODEL, type EmbedderChoice } from './protocol.ts'

/**
 * Builds the embedder a {@link EmbedderChoice} names; without a choice, the product default
 * (transformers.js with bge-small). transformers.js and TF.js are imported only when chosen, so
 * each is a lazy chunk that other memories never download.
 */
export async function createEmbedder(
  choice: EmbedderChoice | undefined,
  onEvent?: MemoryEventListener,
): Promise<Embedder | undefined> {
  switch (choice?.kind ?? 'transformers') {
    case 'none':
      return undefined
    case 'ngram':
      return new NgramEmbedder({ dims: choice?.kind === 'ngram' ? choice.dims : undefined })
    case 'transformers': {
      const c = (choice ?? { kind: 'transformers' }) as Extract<
        EmbedderChoice,
        { kind: 'transformers' }
      >
      const { TransformersEmbedder } = await import('../embedder/transformers-embedder.ts')
      return new TransformersEmbedder({
        model: c.model ?? DEFAULT_MODEL,
        modelBase: c.modelBase,
        allowRemote: c.allowRemote ?? true,
        device: c.device ?? 'auto',
        dtype: c.dtype,
        wasmPaths: c.wasmPaths,
        onProgress: (p) => onEvent?.({ type: 'model-progress', ...p }),
      })
    }
    case 'use': {
      const c = choice as Extract<EmbedderChoice, { kind: 'use' }>
      const { UseEmbedder } = await import('../embedder/use-embedder.ts')
      return new UseEmbedder({
        modelUrl: c.modelUrl,
        wasmPaths: c.wasmPaths,
        onProgress: (p) => onEvent?.({ type: 'model-progress', ...p }),
      })
    }
    default:
      throw new InvalidInputError(
        'BAD_OPTION',
        'embedder.kind',
        `expected 'none', 'ngram', 'transformers' or 'use', got ${JSON.stringify(choice?.kind)}`,
      )
  }
}

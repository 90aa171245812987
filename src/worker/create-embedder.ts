import { InvalidInputError } from '../core/errors.ts'
import type { Embedder, MemoryEventListener } from '../core/types.ts'
import { NgramEmbedder } from '../embedder/ngram-embedder.ts'
import { DEFAULT_MODEL, type EmbedderChoice } from './protocol.ts'

/**
 * Builds the embedder a {@link EmbedderChoice} names; without a choice, the product default
 * (transformers.js with bge-small). transformers.js is imported only when chosen, so
 * keyword-only and n-gram memories never download it.
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
        wasmPaths: c.wasmPaths,
        onProgress: (p) => onEvent?.({ type: 'model-progress', ...p }),
      })
    }
    default:
      throw new InvalidInputError(
        'BAD_OPTION',
        'embedder.kind',
        `expected 'none', 'ngram' or 'transformers', got ${JSON.stringify(choice?.kind)}`,
      )
  }
}

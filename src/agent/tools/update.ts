import { InvalidInputError } from '../../core/errors.ts'
import type { MemoryPatch } from '../../core/types.ts'
import { nullableString, nullableStrings, objectSchema } from '../json-schema.ts'
import { OVERWRITE_HINTS, type ToolSpec } from '../tool-spec.ts'
import { lowerTrust, MEMORY_ID, ownMemory } from './arguments.ts'

/**
 * `memory_update`: corrects a memory of the tools' namespace. A new text is the model's word,
 * so it takes the tools' source and at most their trust: provenance cannot be laundered by
 * rewriting a trusted memory.
 */
export const updateTool: ToolSpec = {
  name: 'memory_update',
  title: 'Correct a memory',
  writes: true,
  annotations: OVERWRITE_HINTS,
  untrustedContent: false,
  describe: () =>
    [
      'Correct or refine a memory found with memory_search, when the user says a stored fact changed ("we moved to Berlin") or it is slightly wrong.',
      'Give its id and the new text and/or tags; null leaves that field as it is.',
      'The corrected memory is recorded as written by the assistant. Returns the id.',
    ].join(' '),
  parameters: () =>
    objectSchema({
      id: MEMORY_ID,
      text: nullableString(
        'The corrected fact, one self-contained sentence; null to keep the text.',
      ),
      tags: nullableStrings(
        'The new full list of tags (it replaces the old one); null to keep them.',
      ),
    }),
  async run(context, args) {
    const id = args.id as string
    if (args.text === null && args.tags === null) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'text',
        'expected a new text or new tags, got neither',
      )
    }
    const current = await ownMemory(context, id)
    const { settings: s } = context
    const patch: MemoryPatch = {}
    if (args.text !== null) {
      patch.text = args.text as string
      patch.source = s.source
      patch.trust = lowerTrust(current.trust, s.trust)
      patch.poison = s.poison
    }
    if (args.tags !== null) patch.tags = args.tags as string[]
    await context.memory.update(id, patch)
    return `Updated memory ${id}.`
  },
}

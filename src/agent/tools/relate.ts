import type { RelationKind } from '../../core/types.ts'
import { RELATION_KINDS } from '../../core/vocabulary.ts'
import { objectSchema } from '../json-schema.ts'
import type { ToolSpec } from '../tool-spec.ts'
import { ownMemory } from './arguments.ts'

/**
 * `memory_relate`: records an edge between two memories of the tools' namespace. Both ends are
 * checked like `memory_update`'s id, so a model cannot attach an edge to a memory it cannot see.
 */
export const relateTool: ToolSpec = {
  name: 'memory_relate',
  title: 'Relate two memories',
  writes: true,
  // Relating the same pair again stores the same edge; an edge hides or adds hits, deletes nothing.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  untrustedContent: false,
  describe: () =>
    [
      'Record how two memories found with memory_search relate, by their ids.',
      "'supersedes': the first replaces the second (a newer fact; the older one is then hidden from searches).",
      "'contradicts': they disagree and the user has not said which holds (searches then point it out).",
      "'depends_on': the first only makes sense with the second. 'related_to': they belong together.",
      'Returns the edge it stored.',
    ].join(' '),
  parameters: () =>
    objectSchema({
      fromId: { type: 'string', description: 'The id of the first memory, from memory_search.' },
      toId: { type: 'string', description: 'The id of the second memory, from memory_search.' },
      kind: {
        type: 'string',
        enum: [...RELATION_KINDS],
        description: `How the first relates to the second: ${RELATION_KINDS.map((k) => `'${k}'`).join(', ')}.`,
      },
    }),
  async run(context, args) {
    const fromId = args.fromId as string
    const toId = args.toId as string
    await ownMemory(context, fromId)
    await ownMemory(context, toId)
    const edge = await context.memory.relations.add(fromId, toId, args.kind as RelationKind)
    return `Related memory ${edge.from} ${edge.kind} memory ${edge.to}.`
  },
}

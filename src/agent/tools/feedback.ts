import type { Feedback } from '../../core/types.ts'
import { FEEDBACK_KINDS } from '../../core/vocabulary.ts'
import { objectSchema } from '../json-schema.ts'
import type { ToolSpec } from '../tool-spec.ts'
import { MEMORY_ID, ownMemory } from './arguments.ts'

/** What each verdict did, in the model's words. */
const DONE: Record<Feedback, string> = {
  useful: 'its confidence was raised',
  wrong: 'its confidence was lowered and it was marked for review',
  outdated: 'it expired and will no longer appear in searches',
}

/** `memory_feedback`: the model's verdict on a memory of the tools' namespace it was shown. */
export const feedbackTool: ToolSpec = {
  name: 'memory_feedback',
  title: 'Rate a memory',
  writes: true,
  // 'outdated' expires the memory and 'wrong' halves its confidence; 'useful' counts each time.
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  untrustedContent: false,
  describe: () =>
    [
      'Say what a memory found with memory_search was worth, by its id.',
      "'useful': it helped answer the user. 'wrong': the user said it is not true (it is marked for review).",
      "'outdated': it was true but no longer is (it expires); prefer memory_update when you know the new fact.",
      'Returns what changed.',
    ].join(' '),
  parameters: () =>
    objectSchema({
      id: MEMORY_ID,
      verdict: {
        type: 'string',
        enum: [...FEEDBACK_KINDS],
        description: `Your verdict: ${FEEDBACK_KINDS.map((k) => `'${k}'`).join(', ')}.`,
      },
    }),
  async run(context, args) {
    const id = args.id as string
    const verdict = args.verdict as Feedback
    await ownMemory(context, id)
    await context.memory.feedback(id, verdict)
    return `Noted memory ${id} as ${verdict}: ${DONE[verdict]}.`
  },
}

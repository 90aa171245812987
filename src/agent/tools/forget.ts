import { objectSchema } from '../json-schema.ts'
import { OVERWRITE_HINTS, type ToolSpec } from '../tool-spec.ts'
import { MEMORY_ID, ownMemory } from './arguments.ts'

/** `memory_forget`: deletes a memory of the tools' namespace by id. */
export const forgetTool: ToolSpec = {
  name: 'memory_forget',
  title: 'Forget a memory',
  writes: true,
  annotations: OVERWRITE_HINTS,
  untrustedContent: false,
  describe: () =>
    [
      'Delete a memory by id, when the user asks you to forget something, or a stored fact is plainly wrong and cannot be corrected with memory_update.',
      'Search first to find the id. Deleting cannot be undone.',
    ].join(' '),
  parameters: () =>
    objectSchema({
      id: MEMORY_ID,
    }),
  async run(context, args) {
    const id = args.id as string
    await ownMemory(context, id)
    await context.memory.forget(id)
    return `Forgot memory ${id}.`
  },
}

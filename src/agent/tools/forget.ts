import { objectSchema } from '../json-schema.ts'
import type { ToolSpec } from '../tool-spec.ts'
import { ownMemory } from './arguments.ts'

/** `memory_forget`: deletes a memory of the tools' namespace by id. */
export const forgetTool: ToolSpec = {
  name: 'memory_forget',
  title: 'Forget a memory',
  writes: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  untrustedContent: false,
  describe: () =>
    [
      'Delete a memory by id, when the user asks you to forget something, or a stored fact is plainly wrong and cannot be corrected with memory_update.',
      'Search first to find the id. Deleting cannot be undone.',
    ].join(' '),
  parameters: () =>
    objectSchema({
      id: { type: 'string', description: 'The id of the memory, from memory_search.' },
    }),
  async run(context, args) {
    const id = args.id as string
    await ownMemory(context, id)
    await context.memory.forget(id)
    return `Forgot memory ${id}.`
  },
}

import { generateText, isStepCount } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { toAiSdkTools } from '../../../src/agent/adapters/ai-sdk.ts'
import { memoryTools } from '../../../src/agent/memory-tools.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openTestMemory } from './memory.ts'

/** One scripted model answer (the provider spec's type, reached through `ai/test`). */
type GenerateResult = Extract<
  NonNullable<ConstructorParameters<typeof MockLanguageModelV4>[0]>['doGenerate'],
  unknown[]
>[number]

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}

function toolCall(id: string, toolName: string, input: unknown): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  }
}

let memory: MemoryClient
beforeEach(async () => {
  memory = await openTestMemory()
})
afterEach(async () => {
  await memory.close()
})

describe('the tools in an AI SDK agent loop', () => {
  it('are sent as strict function tools, executed, and their results fed back to the model', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCall('c1', 'memory_store', {
          text: 'The owner prefers metric units',
          type: null,
          tags: null,
          confidence: null,
        }),
        toolCall('c2', 'memory_search', { query: 'metric units', k: 1, types: null, tags: null }),
        toolCall('c3', 'memory_forget', { id: 'not-an-id' }),
        {
          content: [{ type: 'text', text: 'Metric it is.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        },
      ],
    })
    const tools = memoryTools(memory)
    const result = await generateText({
      model,
      tools: toAiSdkTools(tools),
      prompt: 'Remember that I like metric units, then check.',
      stopWhen: isStepCount(6),
    })
    expect(result.text).toBe('Metric it is.')

    const sent = model.doGenerateCalls[0]!.tools ?? []
    expect(sent.map((t) => t.name)).toEqual(tools.definitions.map((d) => d.name))
    for (const [i, tool] of sent.entries()) {
      expect(tool).toMatchObject({
        type: 'function',
        strict: true,
        inputSchema: tools.definitions[i]!.parameters,
      })
    }

    const outputs = model.doGenerateCalls[3]!.prompt.filter((message) => message.role === 'tool')
      .flatMap((message) => message.content)
      .map((part) => (part.type === 'tool-result' ? part.output : undefined))
    expect(outputs[0]).toEqual({
      type: 'text',
      value: expect.stringMatching(/^Stored as memory \w{26}\.$/),
    })
    expect(outputs[1]).toEqual({
      type: 'text',
      value: expect.stringContaining('\nThe owner prefers metric units\n</memory nonce='),
    })
    expect(outputs[2]).toEqual({
      type: 'error-text',
      value: expect.stringContaining('memory_forget failed'),
    })
    expect(await memory.count()).toBe(1)
  })
})

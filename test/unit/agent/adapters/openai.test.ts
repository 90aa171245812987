import { describe, expect, it } from 'vitest'
import {
  toOpenAIChatTools,
  toOpenAIFunctionCallOutput,
  toOpenAIResponsesTools,
  toOpenAIToolMessage,
} from '../../../../src/agent/adapters/openai.ts'
import { strictSchemaProblems } from '../../../../src/agent/json-schema.ts'
import { offlineTools } from './tools.ts'

/** OpenAI's rule for function names. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/

describe('toOpenAIChatTools', () => {
  const tools = offlineTools()

  it('wraps each definition as a strict function tool', () => {
    const chat = toOpenAIChatTools(tools)
    expect(chat.map((t) => t.function.name)).toEqual(tools.definitions.map((d) => d.name))
    for (const tool of chat) {
      expect(tool.type).toBe('function')
      expect(tool.function.strict).toBe(true)
      expect(tool.function.name).toMatch(NAME)
      expect(tool.function.description.length).toBeGreaterThan(40)
      expect(strictSchemaProblems(tool.function.parameters)).toEqual([])
    }
  })

  it('hands out copies, so a caller editing one cannot change the definitions', () => {
    const [first] = toOpenAIChatTools(tools)
    first!.function.parameters.properties.query!.description = 'changed'
    expect(toOpenAIChatTools(tools)[0]!.function.parameters.properties.query!.description).not.toBe(
      'changed',
    )
  })

  it('accepts the definitions alone as well as the tools', () => {
    expect(toOpenAIChatTools(tools.definitions)).toEqual(toOpenAIChatTools(tools))
  })
})

describe('toOpenAIResponsesTools', () => {
  it('flattens the function fields, strict', () => {
    const [search] = toOpenAIResponsesTools(offlineTools({ readOnly: true }))
    expect(Object.keys(search!).sort()).toEqual([
      'description',
      'name',
      'parameters',
      'strict',
      'type',
    ])
    expect(search).toMatchObject({ type: 'function', name: 'memory_search', strict: true })
  })
})

describe('tool results for OpenAI', () => {
  it('answer a chat tool call and a Responses function call with the result text', async () => {
    const result = await offlineTools().handle('memory_nope', {})
    expect(toOpenAIToolMessage('call_1', result)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: result.content[0]!.text,
    })
    expect(toOpenAIFunctionCallOutput('fc_1', result)).toEqual({
      type: 'function_call_output',
      call_id: 'fc_1',
      output: result.content[0]!.text,
    })
  })
})

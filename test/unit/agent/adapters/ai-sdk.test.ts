import { asSchema } from 'ai'
import { describe, expect, it } from 'vitest'
import { toAiSdkTools } from '../../../../src/agent/adapters/ai-sdk.ts'
import { offlineTools } from './tools.ts'

describe('toAiSdkTools', () => {
  const tools = offlineTools()
  const sdk = toAiSdkTools(tools)

  it('keys one tool per definition by name, strict', () => {
    expect(Object.keys(sdk)).toEqual(tools.definitions.map((d) => d.name))
    for (const tool of Object.values(sdk)) expect(tool.strict).toBe(true)
  })

  it('gives the SDK the JSON Schema of each tool through its own asSchema', async () => {
    for (const definition of tools.definitions) {
      const schema = asSchema(sdk[definition.name].inputSchema)
      expect(await schema.jsonSchema).toEqual(definition.parameters)
      // The SDK rewrites schemas in place; a second read must still be the original.
      expect(await asSchema(sdk[definition.name].inputSchema).jsonSchema).toEqual(
        definition.parameters,
      )
      expect(await schema.validate?.({ query: 'x' })).toEqual({
        success: true,
        value: { query: 'x' },
      })
    }
  })

  it('turns a failed call into error-text for the model and a good one into text', async () => {
    const failed = await sdk.memory_search.execute({ query: 'x', k: 1000 })
    expect(sdk.memory_search.toModelOutput({ output: failed })).toEqual({
      type: 'error-text',
      value: failed.content[0]!.text,
    })
    const ok = { content: [{ type: 'text' as const, text: 'fine' }], isError: false }
    expect(sdk.memory_search.toModelOutput({ output: ok })).toEqual({ type: 'text', value: 'fine' })
  })
})

import { describe, expect, it } from 'vitest'
import {
  toAnthropicToolResult,
  toAnthropicTools,
} from '../../../../src/agent/adapters/anthropic.ts'
import { strictSchemaProblems } from '../../../../src/agent/json-schema.ts'
import { offlineTools } from './tools.ts'

describe('toAnthropicTools', () => {
  it('gives name, description and an object input_schema per tool', () => {
    const tools = toAnthropicTools(offlineTools())
    expect(tools.map((t) => t.name)).toEqual([
      'memory_search',
      'memory_store',
      'memory_update',
      'memory_forget',
      'memory_relate',
      'memory_feedback',
    ])
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name'])
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
      expect(tool.input_schema.type).toBe('object')
      expect(strictSchemaProblems(tool.input_schema)).toEqual([])
    }
  })
})

describe('toAnthropicToolResult', () => {
  it('answers a tool_use block, with is_error set on a failure', async () => {
    const failed = await offlineTools({ readOnly: true }).handle('memory_forget', { id: 'x' })
    expect(toAnthropicToolResult('toolu_1', failed)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: failed.content[0]!.text,
      is_error: true,
    })
    expect(failed.content[0]!.text).toContain('offered tools (memory_search)')
  })
})

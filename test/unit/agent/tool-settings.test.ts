import { describe, expect, it } from 'vitest'
import { DEFAULT_TOOL_SETTINGS, resolveToolSettings } from '../../../src/agent/tool-settings.ts'
import { MEMORY_TOOL_NAMES } from '../../../src/agent/tool-spec.ts'
import { InvalidInputError } from '../../../src/core/errors.ts'

describe('resolveToolSettings', () => {
  it('offers every tool with the documented defaults', () => {
    expect(resolveToolSettings()).toEqual({
      ...DEFAULT_TOOL_SETTINGS,
      tools: [...MEMORY_TOOL_NAMES],
    })
    expect(DEFAULT_TOOL_SETTINGS).toMatchObject({
      source: 'agent',
      trust: 'unverified',
      poison: 'reject',
      flagged: 'omit',
    })
  })

  it('offers only search when read-only, whatever tools were asked for', () => {
    expect(resolveToolSettings({ readOnly: true }).tools).toEqual(['memory_search'])
    expect(resolveToolSettings({ readOnly: true, tools: ['memory_forget'] }).tools).toEqual([])
  })

  it('keeps the listed order of tools, not the order asked', () => {
    expect(resolveToolSettings({ tools: ['memory_forget', 'memory_search'] }).tools).toEqual([
      'memory_search',
      'memory_forget',
    ])
  })

  it("refuses to record a model's writes as the user's own", () => {
    expect(() => resolveToolSettings({ source: 'user' })).toThrow(InvalidInputError)
    expect(() => resolveToolSettings({ source: 'User' })).toThrow(/source/)
  })

  it('refuses to turn the poison screen off for a model', () => {
    expect(() => resolveToolSettings({ poison: 'off' as never })).toThrow(/poison/)
  })

  it('names the option at fault', () => {
    const cases: [Parameters<typeof resolveToolSettings>[0], string][] = [
      [{ k: 0 }, 'k'],
      [{ k: 30 }, 'k'],
      [{ maxK: 101 }, 'maxK'],
      [{ trust: 'very' as never }, 'trust'],
      [{ minTrust: 'x' as never }, 'minTrust'],
      [{ minCosine: 2 }, 'minCosine'],
      [{ tokenBudget: 0.5 }, 'tokenBudget'],
      [{ namespace: ' ' }, 'namespace'],
      [{ tools: ['memory_search', 'memory_unrelate' as never] }, 'tools[1]'],
    ]
    for (const [options, field] of cases) {
      expect(() => resolveToolSettings(options), field).toThrow(
        expect.objectContaining({ code: 'BAD_OPTION', field }),
      )
    }
  })

  it('lowers the default k to maxK when maxK is smaller', () => {
    expect(resolveToolSettings({ maxK: 3 })).toMatchObject({ k: 3, maxK: 3 })
  })
})

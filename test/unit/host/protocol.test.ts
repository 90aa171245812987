import { describe, expect, it } from 'vitest'
import type { MemoryApi, MemoryNamespace } from '../../../src/core/types.ts'
import {
  callMethod,
  forwardMethods,
  MEMORY_METHOD_PATHS,
  MEMORY_METHODS,
  type MemoryMethod,
} from '../../../src/host/protocol.ts'

// Type tests: the compiler (`tsc --noEmit` covers test/) fails where these expectations fail.
// (A method of the contract left out of the list fails `AllMemoryMethodsListed` in protocol.ts.)
// @ts-expect-error a name that is no method of its namespace does not type-check
;({ ...MEMORY_METHODS, relations: ['add', 'remove', 'list'] }) satisfies {
  [N in MemoryNamespace]: readonly (keyof MemoryApi[N])[]
}
'pages.remember' satisfies MemoryMethod
// @ts-expect-error an old flat name is no method path any more
'rememberPage' satisfies MemoryMethod

describe('the memory contract as the wire lists it', () => {
  // Issue 26 added `timeline`, a core verb (what happened when), as the twelfth method.
  it('keeps MemoryApi at 17 top-level members: 12 methods and 5 namespaces', () => {
    const namespaces = Object.keys(MEMORY_METHODS).filter((space) => space !== 'top')
    expect(MEMORY_METHODS.top).toHaveLength(12)
    expect(MEMORY_METHODS.top).toContain('timeline')
    expect(namespaces).toEqual(['pages', 'relations', 'inspect', 'atRest', 'transfer'])
    expect(MEMORY_METHODS.top.length + namespaces.length).toBeLessThanOrEqual(17)
  })

  it('names each method once, a namespace method by its path', () => {
    expect(new Set(MEMORY_METHOD_PATHS).size).toBe(MEMORY_METHOD_PATHS.length)
    expect(MEMORY_METHOD_PATHS).toContain('pages.remember')
    expect(MEMORY_METHOD_PATHS).toContain('transfer.import')
    expect(MEMORY_METHOD_PATHS).not.toContain('sync')
  })

  it('builds the namespaced shape and calls each method by its path', async () => {
    const calls: [MemoryMethod, unknown[]][] = []
    const api = forwardMethods(async (method, args) => {
      calls.push([method, args])
      return method
    })
    expect(await api.pages.remember({ title: 't', text: 'x' })).toBe('pages.remember')
    expect(await api.relations.of('01A')).toBe('relations.of')
    expect(await callMethod(api, 'inspect.stats', [])).toBe('inspect.stats')
    expect(await callMethod(api, 'count', [{ namespace: 'n' }])).toBe('count')
    expect(calls).toEqual([
      ['pages.remember', [{ title: 't', text: 'x' }]],
      ['relations.of', ['01A']],
      ['inspect.stats', []],
      ['count', [{ namespace: 'n' }]],
    ])
  })
})

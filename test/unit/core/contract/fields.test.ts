import { describe, expect, it } from 'vitest'
import {
  FIELDS,
  type FieldRow,
  fieldsSetBy,
  fieldsWhere,
  IMPORT_LINE_FIELDS,
  PATCH_FIELDS,
} from '../../../../src/core/contract/fields.ts'
import { DEFAULT_LIMITS } from '../../../../src/core/options.ts'
import type { Memory, MemoryPatch, RememberOptions } from '../../../../src/core/types.ts'
import { AT_REST_RULES } from '../../../../src/storage/at-rest/row-rules.ts'

// Type tests: the compiler (`tsc --noEmit` covers test/) fails where these expectations fail.
const { confidence: _dropped, ...withoutConfidence } = FIELDS
// @ts-expect-error a Memory field without a row (here confidence) does not type-check
withoutConfidence satisfies Record<keyof Memory, FieldRow>
// @ts-expect-error a row for a field Memory does not have does not type-check either
;({ ...FIELDS, mood: FIELDS.tier }) satisfies Record<keyof Memory, FieldRow>
// Every field a write's options or a patch set is an option of remember and of update.
IMPORT_LINE_FIELDS satisfies readonly (keyof RememberOptions)[]
PATCH_FIELDS satisfies readonly (keyof MemoryPatch)[]

describe('the fields table', () => {
  it('derives the import line fields the code listed by hand before', () => {
    expect(IMPORT_LINE_FIELDS).toEqual([
      'namespace',
      'type',
      'tags',
      'aliases',
      'source',
      'trust',
      'confidence',
      'tier',
      'summary',
      'expiresAt',
      'happenedAt',
      'happenedUntil',
      'meta',
    ])
  })

  it('derives the patch fields the code listed by hand before', () => {
    expect([...PATCH_FIELDS].sort()).toEqual(
      [
        'text',
        'type',
        'tags',
        'aliases',
        'source',
        'trust',
        'confidence',
        'tier',
        'summary',
        'expiresAt',
        'happenedAt',
        'happenedUntil',
        'meta',
      ].sort(),
    )
  })

  it('derives the at-rest rule of the memories table the code listed by hand before', () => {
    const rule = AT_REST_RULES.memories!
    expect([...rule.plain].sort()).toEqual(
      [
        'id',
        'namespace',
        'type',
        'trust',
        'confidence',
        'tier',
        'needsReview',
        'archivedAt',
        'createdAt',
        'updatedAt',
        'confirmedAt',
        'confirmations',
        'recallCount',
        'lastRecalledAt',
        'expiresAt',
        'happenedAt',
        'happenedUntil',
        'pageId',
        'chunk',
      ].sort(),
    )
    expect(rule.hashed).toEqual({ key: 'one', tags: 'each' })
  })

  it('gives every field a caller may write or patch a check, and leaves the engine its own', () => {
    for (const field of [...fieldsSetBy('remember'), ...fieldsSetBy('update')]) {
      expect(FIELDS[field].check, field).toBeTypeOf('function')
    }
    expect(fieldsWhere((row) => row.setBy.length === 0)).toEqual(['key', 'archivedAt', 'flags'])
  })

  it('names the fields the Dexie schema and the keyword index read', () => {
    expect(fieldsWhere((row) => row.indexed.includes('dexie'))).toEqual([
      'id',
      'namespace',
      'type',
      'key',
      'tags',
      'pageId',
    ])
    expect(fieldsWhere((row) => row.indexed.includes('keyword'))).toEqual([
      'text',
      'tags',
      'aliases',
    ])
  })

  it('checks a confidence word as its number and rejects a number past 1', () => {
    const check = FIELDS.confidence.check
    expect(check('high', 'confidence', DEFAULT_LIMITS)).toBe(0.9)
    expect(check(0.25, 'confidence', DEFAULT_LIMITS)).toBe(0.25)
    expect(() => check(1.5, 'patch.confidence', DEFAULT_LIMITS)).toThrow(
      expect.objectContaining({ code: 'BAD_OPTION', field: 'patch.confidence' }),
    )
  })
})

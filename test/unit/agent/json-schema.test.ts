import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkArguments,
  type ObjectSchema,
  objectSchema,
  strictSchemaProblems,
} from '../../../src/agent/json-schema.ts'
import { resolveToolSettings } from '../../../src/agent/tool-settings.ts'
import { MEMORY_TOOL_NAMES } from '../../../src/agent/tool-spec.ts'
import { TOOL_SPECS } from '../../../src/agent/tool-table.ts'
import { InvalidInputError } from '../../../src/core/errors.ts'
import { FEEDBACK_KINDS, RELATION_KINDS } from '../../../src/core/vocabulary.ts'

const schema = objectSchema({
  query: { type: 'string' },
  k: { type: ['integer', 'null'] },
  tags: { type: ['array', 'null'], items: { type: 'string' } },
  confidence: { type: ['string', 'null'], enum: ['low', 'high', null] },
})

function thrown(run: () => unknown): InvalidInputError {
  try {
    run()
  } catch (error) {
    if (error instanceof InvalidInputError) return error
    throw error
  }
  throw new Error('expected InvalidInputError, nothing was thrown')
}

describe('objectSchema', () => {
  it('requires every property and allows no other', () => {
    expect(objectSchema({ id: { type: 'string' } })).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    })
  })
})

describe('strictSchemaProblems', () => {
  it('finds nothing wrong with a strict schema', () => {
    expect(strictSchemaProblems(schema)).toEqual([])
  })

  it('names each rule of the strict subset a schema breaks, with its path', () => {
    const problems = strictSchemaProblems({
      type: 'object',
      properties: {
        k: { type: 'integer', minimum: 1 },
        level: { type: ['string', 'null'], enum: ['a', 'b'] },
        list: { type: 'array' },
        nested: { type: 'object', properties: { x: { type: 'strnig' } }, required: ['x'] },
      },
      required: ['k', 'level', 'list'],
    })
    expect(problems).toEqual([
      '$: additionalProperties must be false',
      '$: required must list every property (missing nested)',
      '$.k: unsupported keyword minimum',
      '$.level: a nullable enum must list null',
      '$.list: an array needs items',
      '$.nested: additionalProperties must be false',
      '$.nested.x: unknown type "strnig"',
    ])
  })

  it('wants an object at the root', () => {
    expect(strictSchemaProblems({ type: 'string' })).toEqual(['$: the root must be type object'])
    expect(strictSchemaProblems(null)).toEqual(['$: expected a schema object'])
  })
})

describe('checkArguments', () => {
  it('returns the arguments with absent nullable ones set to null', () => {
    expect(checkArguments(schema, { query: 'units' })).toEqual({
      query: 'units',
      k: null,
      tags: null,
      confidence: null,
    })
  })

  it('names a missing required argument', () => {
    const error = thrown(() => checkArguments(schema, { k: 3 }))
    expect(error).toMatchObject({ code: 'BAD_OPTION', field: 'query' })
    expect(error.message).toContain('required, expected a string')
  })

  it('names an argument of the wrong type, and says what was expected and given', () => {
    const error = thrown(() => checkArguments(schema, { query: 'x', k: 2.5 }))
    expect(error).toMatchObject({ code: 'BAD_OPTION', field: 'k' })
    expect(error).toMatchObject({ detail: 'expected an integer or null, got 2.5' })
    expect(error.message).toBe('expected an integer or null, got 2.5 (k)')
  })

  it('names the array item at fault by its index', () => {
    const error = thrown(() => checkArguments(schema, { query: 'x', tags: ['a', 'b', 7] }))
    expect(error.field).toBe('tags[2]')
  })

  it('holds an enum to its values', () => {
    expect(
      thrown(() => checkArguments(schema, { query: 'x', confidence: 'medium' })).message,
    ).toContain('expected one of "low", "high", null')
  })

  it('rejects an argument the schema does not name, and anything but an object', () => {
    expect(thrown(() => checkArguments(schema, { query: 'x', namespace: 'other' })).field).toBe(
      'namespace',
    )
    expect(thrown(() => checkArguments(schema, ['x'])).field).toBe('arguments')
    expect(thrown(() => checkArguments(schema, null)).field).toBe('arguments')
  })
})

describe('every tool schema', () => {
  const settings = resolveToolSettings()
  const schemas = MEMORY_TOOL_NAMES.map(
    (name) => [name, TOOL_SPECS[name].parameters(settings)] as const,
  )

  it.each(schemas)('%s fits the strict subset', (_name, parameters) => {
    expect(strictSchemaProblems(parameters)).toEqual([])
  })

  it.each(schemas)(
    '%s: checkArguments accepts exactly what a JSON Schema validator accepts (seeded)',
    (name, parameters) => {
      const validate = new AjvJsonSchemaValidator().getValidator(parameters as never)
      const keys = [...Object.keys(parameters.properties), 'extra']
      const value = fc.oneof(
        fc.jsonValue(),
        fc.string(),
        fc.integer(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.constantFrom('low', 'medium', 'high', ...RELATION_KINDS, ...FEEDBACK_KINDS),
      )
      const args = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length })
      let accepted = 0
      fc.assert(
        fc.property(args, (given) => {
          // A strict caller sends every key; an absent nullable one means null.
          const complete = {
            ...Object.fromEntries(Object.keys(parameters.properties).map((k) => [k, null])),
            ...given,
          }
          const ajv = validate(complete).valid
          const ours = accepts(parameters, given)
          if (ours) accepted++
          expect(ours, `${name} ${JSON.stringify(given)}`).toBe(ajv)
        }),
        // One valid call too: random keys seldom hit every required enum (memory_relate's kind).
        { seed: 917, numRuns: 400, examples: [[validCall(parameters)]] },
      )
      // The generator must reach both outcomes, or the comparison proves little.
      expect(accepted).toBeGreaterThan(0)
    },
  )
})

/** A call every schema of the tools accepts: each enum's first value, a string, or null. */
function validCall(parameters: ObjectSchema): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(parameters.properties).map(([key, p]) => {
      const types = Array.isArray(p.type) ? p.type : [p.type]
      return [key, p.enum ? p.enum[0] : types.includes('string') ? 'x' : null]
    }),
  )
}

function accepts(parameters: ObjectSchema, value: unknown): boolean {
  try {
    checkArguments(parameters, value)
    return true
  } catch (error) {
    if (error instanceof InvalidInputError) return false
    throw error
  }
}

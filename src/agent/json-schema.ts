/**
 * The JSON Schema subset the agent tools are written in: the one OpenAI's strict function
 * calling accepts (every property required, optional ones nullable, `additionalProperties:
 * false`), which Anthropic, the AI SDK, MCP and WebMCP take as it is. Arguments are checked
 * against the same schema a model is shown, so the two cannot drift apart.
 */
import { InvalidInputError } from '../core/errors.ts'

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object'

/** One schema node. Type aliases, not interfaces, so they fit SDK types with index signatures. */
export type JsonSchema = {
  type: JsonType | JsonType[]
  description?: string
  enum?: (string | number | boolean | null)[]
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: false
}

/** A tool's parameters: an object whose every property is listed in `required`. */
export type ObjectSchema = JsonSchema & {
  type: 'object'
  properties: Record<string, JsonSchema>
  required: string[]
  additionalProperties: false
}

/**
 * Builds a strict object schema: every property required, no others allowed. Optional
 * arguments are declared nullable (`type: ['string', 'null']`) and `null` means "not given".
 *
 * @example
 * objectSchema({ id: { type: 'string' } })
 * // => { type: 'object', properties: { id: { type: 'string' } }, required: ['id'],
 * //      additionalProperties: false }
 */
export function objectSchema(properties: Record<string, JsonSchema>): ObjectSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  }
}

/** An optional string argument: `null` means "not given". */
export function nullableString(description: string): JsonSchema {
  return { type: ['string', 'null'], description }
}

/** An optional list of strings (types, tags): `null` means "not given". */
export function nullableStrings(description: string): JsonSchema {
  return { type: ['array', 'null'], items: { type: 'string' }, description }
}

/** Keywords in the subset; anything else is a problem for {@link strictSchemaProblems}. */
const KEYWORDS = new Set([
  'type',
  'description',
  'enum',
  'const',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
])
const TYPES = new Set<string>(['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'])

/**
 * Lists where a schema leaves the strict subset, as `path: problem` lines; empty when it fits.
 * Checks: the root is an object; every object sets `additionalProperties: false` and requires
 * every property; only {@link KEYWORDS} appear (no `minimum`, `maxLength`, `pattern`, `format`,
 * `default`: strict mode and some providers reject them, so ranges live in descriptions and in
 * the argument check); types are JSON Schema's; a nullable `enum` lists `null`.
 *
 * @example
 * strictSchemaProblems({ type: 'object', properties: { k: { type: 'integer', minimum: 1 } } })
 * // => ['$: additionalProperties must be false', '$: required must list every property (missing k)',
 * //     '$.k: unsupported keyword minimum']
 */
export function strictSchemaProblems(schema: unknown, path = '$'): string[] {
  const problems: string[] = []
  if (!isRecord(schema)) return [`${path}: expected a schema object`]
  if (path === '$' && schema.type !== 'object')
    problems.push(`${path}: the root must be type object`)
  for (const key of Object.keys(schema)) {
    if (!KEYWORDS.has(key)) problems.push(`${path}: unsupported keyword ${key}`)
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (schema.anyOf === undefined) {
    for (const type of types) {
      if (typeof type !== 'string' || !TYPES.has(type)) {
        problems.push(`${path}: unknown type ${JSON.stringify(type)}`)
      }
    }
  }
  if (Array.isArray(schema.enum) && types.includes('null') && !schema.enum.includes(null)) {
    problems.push(`${path}: a nullable enum must list null`)
  }
  if (types.includes('object')) problems.push(...objectProblems(schema, path))
  if (types.includes('array')) {
    if (schema.items === undefined) problems.push(`${path}: an array needs items`)
    else problems.push(...strictSchemaProblems(schema.items, `${path}[]`))
  }
  if (Array.isArray(schema.anyOf)) {
    schema.anyOf.forEach((branch, i) => {
      problems.push(...strictSchemaProblems(branch, `${path}.anyOf[${i}]`))
    })
  }
  return problems
}

function objectProblems(schema: Record<string, unknown>, path: string): string[] {
  const problems: string[] = []
  const properties = isRecord(schema.properties) ? schema.properties : {}
  if (schema.additionalProperties !== false)
    problems.push(`${path}: additionalProperties must be false`)
  const required = Array.isArray(schema.required) ? schema.required : []
  const missing = Object.keys(properties).filter((key) => !required.includes(key))
  if (missing.length > 0) {
    problems.push(`${path}: required must list every property (missing ${missing.join(', ')})`)
  }
  for (const [key, child] of Object.entries(properties)) {
    problems.push(...strictSchemaProblems(child, `${path}.${key}`))
  }
  return problems
}

/**
 * Checks `value` against a schema of the subset and returns it with every absent nullable
 * property set to `null` (strict callers always send them; others may not). Throws
 * `InvalidInputError` (`BAD_OPTION`) naming the argument at fault, e.g. `tags[2]`.
 *
 * @example
 * checkArguments(objectSchema({ k: { type: ['integer', 'null'] } }), {})
 * // => { k: null }
 * checkArguments(objectSchema({ k: { type: ['integer', 'null'] } }), { k: 2.5 })
 * // throws InvalidInputError { code: 'BAD_OPTION', field: 'k' }: expected an integer or null, got 2.5
 */
export function checkArguments(schema: ObjectSchema, value: unknown): Record<string, unknown> {
  if (!isRecord(value)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'arguments',
      `expected a JSON object, got ${show(value)}`,
    )
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(schema.properties, key)) {
      const known = Object.keys(schema.properties).join(', ')
      throw new InvalidInputError('BAD_OPTION', key, `unexpected argument (expected only ${known})`)
    }
  }
  for (const [key, child] of Object.entries(schema.properties)) {
    const given = Object.hasOwn(value, key) ? value[key] : undefined
    if (given === undefined && typesOf(child).includes('null')) {
      out[key] = null
      continue
    }
    if (given === undefined) {
      throw new InvalidInputError('BAD_OPTION', key, `required, expected ${expected(child)}`)
    }
    checkValue(child, given, key)
    out[key] = given
  }
  return out
}

function checkValue(schema: JsonSchema, value: unknown, field: string): void {
  const types = typesOf(schema)
  const type = types.find((t) => fits(t, value))
  if (type === undefined || (schema.enum && !schema.enum.includes(value as never))) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected ${expected(schema)}, got ${show(value)}`,
    )
  }
  if (type === 'array' && schema.items) {
    for (const [i, item] of (value as unknown[]).entries()) {
      checkValue(schema.items, item, `${field}[${i}]`)
    }
  }
}

function fits(type: JsonType, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null
    case 'string':
      return typeof value === 'string'
    case 'boolean':
      return typeof value === 'boolean'
    case 'integer':
      return Number.isInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'array':
      return Array.isArray(value)
    case 'object':
      return isRecord(value)
  }
}

const NOUNS: Record<JsonType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  array: 'an array',
  object: 'an object',
}

function expected(schema: JsonSchema): string {
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`
  return typesOf(schema)
    .map((type) =>
      type === 'array' && schema.items
        ? `an array of ${expected(schema.items).replace(/^an? /, '')}s`
        : NOUNS[type],
    )
    .join(' or ')
}

function typesOf(schema: JsonSchema): JsonType[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A short rendering of what was given, for an error message. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  const json = JSON.stringify(value)
  if (json === undefined) return typeof value
  return json.length > 60 ? `${json.slice(0, 57)}…` : json
}

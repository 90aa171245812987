import type { Memory } from '../../core/types.ts'
import {
  ALWAYS,
  CODED,
  CODED_FIELDS,
  type CodedField,
  FIRST_CAPACITY,
  GROWTH,
  grown,
  LIST_FIELDS,
  LISTS,
  type ListField,
  NO_LIST,
  NUMBER_FIELDS,
  NUMBERS,
  type NumberField,
} from './catalogue-fields.ts'
import { ListTable, StringTable } from './interned.ts'
import { PageColumns } from './page-columns.ts'

/** A number column's value, not NaN ("none") nor past the end of a column not made yet. */
const present = (value: number | undefined): value is number =>
  value !== undefined && !Number.isNaN(value)
/** A value a number column takes. */
const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && !Number.isNaN(value)
/** A value a list column takes (the list table's test, without interning it). */
function isStringList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false
  for (const item of value) if (typeof item !== 'string') return false
  return true
}
const ALWAYS_FIELDS: ReadonlySet<string> = new Set(ALWAYS)

/**
 * The index set's catalogue: every memory by id, in columns rather than one object per memory
 * (issue 25: 100k row objects, their empty lists and key strings were a third of the worker's
 * heap). Namespaces, types, sources, trust, tiers and page ids are codes into one string table,
 * tags, aliases, flags and heading paths codes into a list table (the empty list costs nothing),
 * numbers and dates `Float64Array`s, texts and keys strings; a field that fits no column (meta,
 * an unknown field, a value of an unexpected kind) is kept as it is beside the row.
 *
 * It reads as a `ReadonlyMap<string, Memory>`: `get` and iteration materialise a fresh `Memory`
 * (its lists fresh arrays, `meta` the object stored), equal field for field to the one `set`,
 * in insertion order, a replaced row keeping its place. Hot paths read single fields by slot
 * ({@link Catalogue.slotOf}, {@link Catalogue.stringAt}, …) without materialising.
 */
export class Catalogue implements ReadonlyMap<string, Memory> {
  /** Id → slot, in catalogue order. */
  readonly #slots = new Map<string, number>()
  readonly #free: number[] = []
  #capacity = 0
  #end = 0
  readonly #strings = new StringTable()
  readonly #lists = new ListTable()
  #ids: (string | undefined)[] = []
  #texts: (string | undefined)[] = []
  #keys: (string | undefined)[] = []
  readonly #coded = {} as Record<CodedField, Uint32Array>
  readonly #listed = {} as Record<ListField, Uint32Array>
  readonly #numbers = {} as Record<NumberField, Float64Array>
  /** 1 where the row has every field the write path always sets, each in its column. */
  #whole = new Uint8Array(0)
  /** 0: no `needsReview`; 1 false; 2 true. */
  #review = new Uint8Array(0)
  #pages = new PageColumns(this.#strings, this.#lists)
  /** `summary` by slot, for the rows that have one. */
  readonly #summaries = new Map<number, string>()
  /** Fields no column holds (`meta`, unknown ones) by slot, for the rows that have any. */
  readonly #rest = new Map<number, Record<string, unknown>>()
  /**
   * The write that last set each slot, from {@link Catalogue.writes}: a snapshot keeps the
   * segments no write touched since its last save instead of serialising them again.
   */
  #stamps = new Float64Array(0)
  /** Writes so far; never reset (not by `clear` either), so a stamp is never reused. */
  #writes = 0

  constructor(rows: Iterable<Memory> = []) {
    for (const field of CODED) this.#coded[field] = new Uint32Array(0)
    for (const field of LISTS) this.#listed[field] = new Uint32Array(0)
    for (const field of NUMBERS) this.#numbers[field] = new Float64Array(0)
    for (const row of rows) this.set(row)
  }

  /** Makes room for `rows` rows in all, so adopting a whole catalogue grows no column. */
  reserve(rows: number): void {
    if (rows > this.#capacity) this.#grow(rows)
  }

  get size(): number {
    return this.#slots.size
  }

  get [Symbol.toStringTag](): string {
    return 'Catalogue'
  }

  has(id: string): boolean {
    return this.#slots.has(id)
  }

  get(id: string): Memory | undefined {
    const slot = this.#slots.get(id)
    return slot === undefined ? undefined : this.#row(slot)
  }

  /** Adds a row, or replaces the one with its id (which keeps its place in the order). */
  set(memory: Memory): this {
    let slot = this.#slots.get(memory.id)
    if (slot === undefined) {
      slot = this.#free.pop() ?? this.#end++
      if (slot >= this.#capacity)
        this.#grow(Math.max(FIRST_CAPACITY, Math.ceil(this.#capacity * GROWTH)))
      this.#slots.set(memory.id, slot)
      this.#ids[slot] = memory.id
    } else this.#release(slot)
    this.#write(slot, memory)
    this.#stamps[slot] = ++this.#writes
    return this
  }

  delete(id: string): boolean {
    const slot = this.#slots.get(id)
    if (slot === undefined) return false
    this.#release(slot)
    this.#slots.delete(id)
    this.#ids[slot] = undefined
    this.#free.push(slot)
    this.#writes++
    return true
  }

  clear(): void {
    this.#slots.clear()
    this.#free.length = 0
    this.#capacity = 0
    this.#end = 0
    this.#strings.clear()
    this.#lists.clear()
    this.#ids = []
    this.#texts = []
    this.#keys = []
    for (const field of CODED) this.#coded[field] = new Uint32Array(0)
    for (const field of LISTS) this.#listed[field] = new Uint32Array(0)
    for (const field of NUMBERS) this.#numbers[field] = new Float64Array(0)
    this.#review = new Uint8Array(0)
    this.#whole = new Uint8Array(0)
    this.#stamps = new Float64Array(0)
    this.#writes++
    this.#pages = new PageColumns(this.#strings, this.#lists)
    this.#summaries.clear()
    this.#rest.clear()
  }

  keys(): MapIterator<string> {
    return this.#slots.keys()
  }

  *values(): MapIterator<Memory> {
    for (const slot of this.#slots.values()) yield this.#row(slot)
  }

  *entries(): MapIterator<[string, Memory]> {
    for (const [id, slot] of this.#slots) yield [id, this.#row(slot)]
  }

  [Symbol.iterator](): MapIterator<[string, Memory]> {
    return this.entries()
  }

  forEach(
    callback: (value: Memory, key: string, map: ReadonlyMap<string, Memory>) => void,
    thisArg?: unknown,
  ): void {
    for (const [id, slot] of this.#slots) callback.call(thisArg, this.#row(slot), id, this)
  }

  /** The slot of a row: a small integer for the `…At` reads, valid until the row is deleted. */
  slotOf(id: string): number | undefined {
    return this.#slots.get(id)
  }

  /** Slots in catalogue order. */
  slots(): MapIterator<number> {
    return this.#slots.values()
  }

  /** How many rows were set or deleted so far (across `clear` too): it only grows. */
  get writes(): number {
    return this.#writes
  }

  /** The {@link Catalogue.writes} count of the write that last set the row at `slot`. */
  stampAt(slot: number): number {
    return this.#stamps[slot] ?? 0
  }

  /** The row at `slot` as `get` makes it. */
  rowAt(slot: number): Memory {
    return this.#row(slot)
  }

  idAt(slot: number): string {
    return this.#ids[slot]!
  }

  textAt(slot: number): string {
    return this.#texts[slot] ?? ''
  }

  keyAt(slot: number): string | undefined {
    return this.#keys[slot]
  }

  stringAt(slot: number, field: CodedField): string | undefined {
    return this.#strings.value(this.#coded[field][slot] ?? 0)
  }

  /** The row's list, shared and frozen: read it, never hand it out. */
  listAt(slot: number, field: ListField): readonly string[] {
    const code = this.#listed[field][slot] ?? NO_LIST
    return this.#lists.value(code === NO_LIST ? 0 : code)
  }

  /** The row's number; undefined when it has none. */
  numberAt(slot: number, field: NumberField): number | undefined {
    const value = this.#numbers[field][slot]
    return value === undefined || Number.isNaN(value) ? undefined : value
  }

  #grow(capacity: number): void {
    for (const field of CODED) this.#coded[field] = grown(this.#coded[field], capacity, 0)
    for (const field of LISTS) this.#listed[field] = grown(this.#listed[field], capacity, NO_LIST)
    for (const field of NUMBERS) this.#numbers[field] = grown(this.#numbers[field], capacity, NaN)
    this.#review = grown(this.#review, capacity, 0)
    this.#whole = grown(this.#whole.length ? this.#whole : new Uint8Array(1), capacity, 0)
    this.#stamps = grown(this.#stamps.length ? this.#stamps : new Float64Array(1), capacity, 0)
    this.#pages.grow(capacity)
    this.#capacity = capacity
  }

  #write(slot: number, memory: Memory): void {
    if (this.#writeUsual(slot, memory)) return
    let rest: Record<string, unknown> | undefined
    for (const [field, value] of Object.entries(memory)) {
      rest = this.#writeField(slot, field, value, rest)
    }
    if (rest) this.#rest.set(slot, rest)
    let whole = 1
    for (const field of ALWAYS) if (this.#absent(slot, field)) whole = 0
    this.#whole[slot] = whole
  }

  /**
   * A row the write path made (every {@link ALWAYS} field, each of its kind) straight into its
   * columns, then its other fields one by one; false, with nothing written, for any other row. A
   * cold start adopts a snapshot's whole catalogue through here: `Object.entries` and a switch
   * per field cost 5 µs a row, most of the adoption (issue 25).
   */
  #writeUsual(slot: number, m: Memory): boolean {
    const { namespace, type, text, key, source, trust, tier, tags, aliases, flags } = m
    if (
      typeof namespace !== 'string' ||
      typeof type !== 'string' ||
      typeof text !== 'string' ||
      typeof key !== 'string' ||
      typeof source !== 'string' ||
      typeof trust !== 'string' ||
      typeof tier !== 'string' ||
      !isNumber(m.confidence) ||
      !isNumber(m.createdAt) ||
      !isNumber(m.updatedAt) ||
      !isNumber(m.confirmedAt) ||
      !isNumber(m.confirmations) ||
      !isNumber(m.recallCount) ||
      !isStringList(tags) ||
      !isStringList(aliases) ||
      !isStringList(flags)
    ) {
      return false
    }
    this.#texts[slot] = text
    this.#keys[slot] = key
    this.#writeCode(slot, 'namespace', namespace)
    this.#writeCode(slot, 'type', type)
    this.#writeCode(slot, 'source', source)
    this.#writeCode(slot, 'trust', trust)
    this.#writeCode(slot, 'tier', tier)
    this.#writeNumber(slot, 'confidence', m.confidence)
    this.#writeNumber(slot, 'createdAt', m.createdAt)
    this.#writeNumber(slot, 'updatedAt', m.updatedAt)
    this.#writeNumber(slot, 'confirmedAt', m.confirmedAt)
    this.#writeNumber(slot, 'confirmations', m.confirmations)
    this.#writeNumber(slot, 'recallCount', m.recallCount)
    this.#writeList(slot, 'tags', this.#lists.acquire(tags)!)
    this.#writeList(slot, 'aliases', this.#lists.acquire(aliases)!)
    this.#writeList(slot, 'flags', this.#lists.acquire(flags)!)
    this.#whole[slot] = 1
    const fields = Object.keys(m)
    if (fields.length > ALWAYS.length + 1) {
      let rest: Record<string, unknown> | undefined
      for (const field of fields) {
        if (field === 'id' || ALWAYS_FIELDS.has(field)) continue
        rest = this.#writeField(slot, field, (m as unknown as Record<string, unknown>)[field], rest)
      }
      if (rest) this.#rest.set(slot, rest)
    }
    return true
  }

  /** Files one field of a row; returns `rest` with the field added when no column takes it. */
  #writeField(
    slot: number,
    field: string,
    value: unknown,
    rest: Record<string, unknown> | undefined,
  ): Record<string, unknown> | undefined {
    if (value === undefined || field === 'id') return rest
    let kept = false
    switch (field) {
      case 'text':
      case 'key':
        if (typeof value !== 'string') kept = true
        else if (field === 'text') this.#texts[slot] = value
        else this.#keys[slot] = value
        break
      case 'summary':
        if (typeof value === 'string') this.#summaries.set(slot, value)
        else kept = true
        break
      case 'needsReview':
        if (typeof value !== 'boolean') kept = true
        else {
          if (this.#review.length === 0) this.#review = new Uint8Array(this.#capacity)
          this.#review[slot] = value ? 2 : 1
        }
        break
      case 'page':
        kept = !this.#pages.write(slot, this.#capacity, value)
        break
      default:
        kept = !this.#writeColumn(slot, field, value)
    }
    if (!kept) return rest
    const out = rest ?? {}
    out[field] = value
    return out
  }

  #absent(slot: number, field: (typeof ALWAYS)[number]): boolean {
    if (field === 'text') return this.#texts[slot] === undefined
    if (field === 'key') return this.#keys[slot] === undefined
    if (CODED_FIELDS.has(field)) return !this.#coded[field as CodedField][slot]
    if (LIST_FIELDS.has(field))
      return (this.#listed[field as ListField][slot] ?? NO_LIST) === NO_LIST
    return this.numberAt(slot, field as NumberField) === undefined
  }

  #writeColumn(slot: number, field: string, value: unknown): boolean {
    if (NUMBER_FIELDS.has(field)) {
      if (!isNumber(value)) return false
      this.#writeNumber(slot, field as NumberField, value)
      return true
    }
    if (CODED_FIELDS.has(field)) {
      if (typeof value !== 'string') return false
      this.#writeCode(slot, field as CodedField, value)
      return true
    }
    if (LIST_FIELDS.has(field)) {
      const code = this.#lists.acquire(value)
      if (code === undefined) return false
      this.#writeList(slot, field as ListField, code)
      return true
    }
    return false
  }

  #writeNumber(slot: number, field: NumberField, value: number): void {
    const numbers = this.#numbers
    if (numbers[field].length === 0) numbers[field] = new Float64Array(this.#capacity).fill(NaN)
    numbers[field][slot] = value
  }

  #writeCode(slot: number, field: CodedField, value: string): void {
    const coded = this.#coded
    if (coded[field].length === 0) coded[field] = new Uint32Array(this.#capacity)
    coded[field][slot] = this.#strings.acquire(value)
  }

  #writeList(slot: number, field: ListField, code: number): void {
    const listed = this.#listed
    if (listed[field].length === 0) listed[field] = new Uint32Array(this.#capacity).fill(NO_LIST)
    listed[field][slot] = code
  }

  /** Lets go of everything the row at `slot` holds, leaving the slot empty. */
  #release(slot: number): void {
    for (const field of CODED) {
      this.#strings.release(this.#coded[field][slot] ?? 0)
      this.#coded[field][slot] = 0
    }
    for (const field of LISTS) {
      const code = this.#listed[field][slot] ?? NO_LIST
      if (code !== NO_LIST) this.#lists.release(code)
      this.#listed[field][slot] = NO_LIST
    }
    for (const field of NUMBERS) this.#numbers[field][slot] = NaN
    this.#review[slot] = 0
    this.#pages.release(slot)
    this.#texts[slot] = undefined
    this.#keys[slot] = undefined
    this.#summaries.delete(slot)
    this.#rest.delete(slot)
  }

  /** A fresh `Memory` of the row at `slot`, its fields in the order the write path makes them. */
  #row(slot: number): Memory {
    if (this.#whole[slot]) return this.#wholeRow(slot)
    // A row lacking a field the write path always sets (an old or odd row): field by field.
    const m: Record<string, unknown> = { id: this.#ids[slot] }
    for (const field of ALWAYS) {
      if (this.#absent(slot, field)) continue
      if (field === 'text') m.text = this.#texts[slot]
      else if (field === 'key') m.key = this.#keys[slot]
      else if (CODED_FIELDS.has(field)) m[field] = this.stringAt(slot, field as CodedField)
      else if (LIST_FIELDS.has(field))
        m[field] = this.#list(this.#listed[field as ListField][slot]!)
      else m[field] = this.numberAt(slot, field as NumberField)
    }
    return this.#optional(slot, m)
  }

  /** A row with every field `toMemory` sets, as one literal in its order, then the others. */
  #wholeRow(slot: number): Memory {
    const c = this.#coded
    const n = this.#numbers
    const l = this.#listed
    const strings = this.#strings
    const m: Record<string, unknown> = {
      id: this.#ids[slot],
      namespace: strings.value(c.namespace[slot]!),
      type: strings.value(c.type[slot]!),
      text: this.#texts[slot],
      key: this.#keys[slot],
      tags: this.#list(l.tags[slot]!),
      aliases: this.#list(l.aliases[slot]!),
      source: strings.value(c.source[slot]!),
      trust: strings.value(c.trust[slot]!),
      confidence: n.confidence[slot],
      tier: strings.value(c.tier[slot]!),
      flags: this.#list(l.flags[slot]!),
      createdAt: n.createdAt[slot],
      updatedAt: n.updatedAt[slot],
      confirmedAt: n.confirmedAt[slot],
      confirmations: n.confirmations[slot],
      recallCount: n.recallCount[slot],
    }
    return this.#optional(slot, m)
  }

  /** `m` with the row's optional fields and whatever no column holds. */
  #optional(slot: number, m: Record<string, unknown>): Memory {
    const c = this.#coded
    const n = this.#numbers
    let value = n.lastRecalledAt[slot]
    if (present(value)) m.lastRecalledAt = value
    value = n.expiresAt[slot]
    if (present(value)) m.expiresAt = value
    value = n.happenedAt[slot]
    if (present(value)) m.happenedAt = value
    value = n.happenedUntil[slot]
    if (present(value)) m.happenedUntil = value
    value = n.archivedAt[slot]
    if (present(value)) m.archivedAt = value
    if (this.#summaries.size > 0) {
      const summary = this.#summaries.get(slot)
      if (summary !== undefined) m.summary = summary
    }
    const review = this.#review[slot]
    if (review) m.needsReview = review === 2
    const code = c.pageId[slot]
    if (code) m.pageId = this.#strings.value(code)
    value = n.chunk[slot]
    if (present(value)) m.chunk = value
    const page = this.#pages.read(slot)
    if (page) m.page = page
    if (this.#rest.size > 0) {
      const rest = this.#rest.get(slot)
      if (rest) Object.assign(m, rest)
    }
    return m as unknown as Memory
  }

  /** A fresh copy of an interned list (the empty one, code 0, a new `[]`). */
  #list(code: number): string[] {
    return code === 0 ? [] : this.#lists.value(code).slice()
  }
}

/**
 * Values kept once however many rows share them, by a small integer code, with a count of the
 * rows holding each so a value no row holds any more is dropped (a forgotten page's id, a
 * rewritten memory's alias list). Code 0 stands for no value at all, so a fresh typed-array
 * column reads as "none" until a row is written.
 */
export class Interned<T> {
  readonly #codes = new Map<string, number>()
  readonly #keys: (string | undefined)[] = [undefined]
  readonly #values: (T | undefined)[] = [undefined]
  readonly #counts: number[] = [0]
  readonly #free: number[] = []

  /** Distinct values held. */
  get size(): number {
    return this.#codes.size
  }

  /** The code of the value under `key`, which one more row now holds (made by `make` if new). */
  acquire(key: string, make: () => T): number {
    let code = this.#codes.get(key)
    if (code === undefined) {
      code = this.#free.pop() ?? this.#values.length
      this.#codes.set(key, code)
      this.#keys[code] = key
      this.#values[code] = make()
      this.#counts[code] = 0
    }
    this.#counts[code]!++
    return code
  }

  /** One row fewer holds `code`; the value goes once none does. Code 0 is ignored. */
  release(code: number): void {
    if (code === 0) return
    const left = --this.#counts[code]!
    if (left > 0) return
    this.#codes.delete(this.#keys[code]!)
    this.#keys[code] = undefined
    this.#values[code] = undefined
    this.#free.push(code)
  }

  /** The value of `code`; undefined for code 0. */
  value(code: number): T | undefined {
    return this.#values[code]
  }

  clear(): void {
    this.#codes.clear()
    this.#keys.length = 1
    this.#values.length = 1
    this.#counts.length = 1
    this.#free.length = 0
  }
}

/** Interned strings: the string is its own key. */
export class StringTable {
  readonly #table = new Interned<string>()

  acquire(value: string): number {
    return this.#table.acquire(value, () => value)
  }

  release(code: number): void {
    this.#table.release(code)
  }

  value(code: number): string | undefined {
    return this.#table.value(code)
  }

  clear(): void {
    this.#table.clear()
  }
}

const EMPTY: readonly string[] = Object.freeze([])

/**
 * Interned string lists (tags, aliases, flags, heading paths): the empty list is code 0 and
 * costs nothing, most others are shared by many rows. The lists handed out are frozen; a row
 * materialised for a caller gets its own copy.
 */
export class ListTable {
  readonly #table = new Interned<readonly string[]>()

  /** The code of `list`, or undefined when it is not a list of strings (kept as it is). */
  acquire(list: unknown): number | undefined {
    if (!Array.isArray(list)) return undefined
    if (list.length === 0) return 0
    for (const item of list) if (typeof item !== 'string') return undefined
    return this.#table.acquire(JSON.stringify(list), () => Object.freeze(list.slice()))
  }

  release(code: number): void {
    this.#table.release(code)
  }

  /** The shared, frozen list of `code`. */
  value(code: number): readonly string[] {
    return this.#table.value(code) ?? EMPTY
  }

  clear(): void {
    this.#table.clear()
  }
}

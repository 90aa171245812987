/**
 * Values to bytes and back, for sealing: JSON for the structure, with typed arrays moved to a
 * binary tail (a vector or a snapshot's codes as raw bytes, not a JSON list of numbers) and
 * non-finite numbers kept. Synchronous, since it runs inside IndexedDB transactions.
 *
 * Layout: `u32 header length | header JSON | u32 body length | body JSON | padding to 8 | each
 * typed array's bytes, 8-aligned`. The header lists where the body had a typed array or a
 * non-finite number (a path of keys) and what it was. No JSON replacer or reviver runs: both
 * call back into JS for every value, which tripled the cost of a 10k-memory index snapshot.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const VIEWS = {
  Float32Array,
  Float64Array,
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
} as const
type ViewName = keyof typeof VIEWS
type Path = (string | number)[]
/** A typed array's kind, tail offset and length; or a non-finite number as text. */
type Mark = [Path, ViewName, number, number] | [Path, 'number', string]

const align = (n: number) => (n + 7) & ~7

/** Finds what JSON cannot carry, recording where; `views` gets the typed arrays in order. */
function findMarks(
  value: unknown,
  path: Path,
  marks: Mark[],
  views: ArrayBufferView[],
  tail: { at: number },
): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) marks.push([[...path], 'number', String(value)])
    return
  }
  if (value === null || typeof value !== 'object') return
  if (ArrayBuffer.isView(value)) {
    const kind = value.constructor.name as ViewName
    if (!Object.hasOwn(VIEWS, kind)) throw new TypeError(`cannot seal a ${kind}`)
    marks.push([[...path], kind, tail.at, (value as unknown as ArrayLike<number>).length])
    views.push(value)
    tail.at = align(tail.at + value.byteLength)
    return
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i]
      if (typeof v === 'object' || typeof v === 'number') {
        path.push(i)
        findMarks(v, path, marks, views, tail)
        path.pop()
      }
    }
    return
  }
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key]
    if (typeof v === 'object' || typeof v === 'number') {
      path.push(key)
      findMarks(v, path, marks, views, tail)
      path.pop()
    }
  }
}

/** `root` with the marked places set to null, copying only the containers on their paths. */
function withoutMarks(root: unknown, marks: readonly Mark[]): unknown {
  if (marks.length === 0) return root
  type Node = Record<string | number, unknown>
  // Source container → its copy, so containers shared by several paths are copied once.
  const copies = new Map<unknown, Node>()
  const copyOf = (source: Node): Node => {
    const known = copies.get(source)
    if (known) return known
    const made = (Array.isArray(source) ? [...source] : { ...source }) as Node
    copies.set(source, made)
    return made
  }
  const top: Node = { root }
  const out = copyOf(top)
  for (const [path] of marks) {
    let source = top
    let target = out
    let key: string | number = 'root'
    for (const step of path) {
      source = source[key] as Node
      target = target[key] = copyOf(source)
      key = step
    }
    target[key] = null
  }
  return out.root
}

/** Encodes JSON data, typed arrays and non-finite numbers (see the module comment). */
export function encodeValue(value: unknown): Uint8Array {
  const marks: Mark[] = []
  const views: ArrayBufferView[] = []
  const tail = { at: 0 }
  findMarks(value, [], marks, views, tail)
  const head = encoder.encode(JSON.stringify(marks))
  const body = encoder.encode(JSON.stringify(withoutMarks(value, marks)) ?? 'null')
  const start = align(8 + head.length + body.length)
  const out = new Uint8Array(start + tail.at)
  const view = new DataView(out.buffer)
  view.setUint32(0, head.length, true)
  out.set(head, 4)
  view.setUint32(4 + head.length, body.length, true)
  out.set(body, 8 + head.length)
  let at = start
  for (const v of views) {
    out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at)
    at = align(at + v.byteLength)
  }
  return out
}

/** The value {@link encodeValue} encoded, typed arrays as fresh copies of their own type. */
export function decodeValue(bytes: Uint8Array): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const headLength = view.getUint32(0, true)
  const marks = JSON.parse(decoder.decode(bytes.subarray(4, 4 + headLength))) as Mark[]
  const bodyLength = view.getUint32(4 + headLength, true)
  const bodyStart = 8 + headLength
  const top = {
    root: JSON.parse(decoder.decode(bytes.subarray(bodyStart, bodyStart + bodyLength))),
  }
  const start = align(bodyStart + bodyLength)
  for (const mark of marks) {
    let target = top as Record<string | number, unknown>
    let key: string | number = 'root'
    for (const step of mark[0]) {
      target = target[key] as Record<string | number, unknown>
      key = step
    }
    if (mark[1] === 'number') {
      target[key] = Number(mark[2])
      continue
    }
    const View = VIEWS[mark[1]]
    const from = start + mark[2]
    // A copy, aligned for its element type (the stored buffer need not be).
    target[key] = new View(bytes.slice(from, from + mark[3] * View.BYTES_PER_ELEMENT).buffer)
  }
  return top.root
}

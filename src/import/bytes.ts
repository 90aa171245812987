import { concatBytes } from '../core/bytes.ts'
import { InvalidInputError } from '../core/errors.ts'

/**
 * What an import reads: a stream (a `File.stream()`, a `fetch` body), a `Blob`, bytes or text.
 * A Markdown folder may also be given as its files (see {@link NoteFile}).
 */
export type ImportSource = ReadableStream<Uint8Array> | Blob | Uint8Array | string | NoteFile[]

/** One file of a notes folder: its path inside the folder and its text. */
export interface NoteFile {
  /** Path inside the folder, `/`-separated (`Projects/Lisbon.md`). */
  path: string
  text: string
  /** Epoch milliseconds the file was last changed, used when its front matter gives no date. */
  modifiedAt?: number
}

/** Bytes read at a time from a `Blob` or a `Uint8Array`: small enough to keep the heap flat. */
const SLICE_BYTES = 1 << 20

/**
 * The source as a sequence of byte chunks, never as one buffer: a 200 MB export is read a
 * slice at a time, so the heap holds one slice and what the parser keeps.
 *
 * @throws InvalidInputError `BAD_OPTION` for anything else (a list of files is not bytes).
 */
export async function* byteChunks(source: ImportSource): AsyncGenerator<Uint8Array> {
  if (typeof source === 'string') {
    const bytes = new TextEncoder().encode(source)
    for (let i = 0; i < bytes.length; i += SLICE_BYTES) yield bytes.subarray(i, i + SLICE_BYTES)
  } else if (source instanceof Uint8Array) {
    for (let i = 0; i < source.length; i += SLICE_BYTES) yield source.subarray(i, i + SLICE_BYTES)
  } else if (typeof Blob !== 'undefined' && source instanceof Blob) {
    for (let i = 0; i < source.size; i += SLICE_BYTES) {
      yield new Uint8Array(await source.slice(i, i + SLICE_BYTES).arrayBuffer())
    }
  } else if (isReadableStream(source)) {
    const reader = source.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        if (!(value instanceof Uint8Array)) {
          throw new InvalidInputError('BAD_OPTION', 'source', 'expected a stream of Uint8Array')
        }
        yield value
      }
    } finally {
      reader.releaseLock()
    }
  } else {
    throw new InvalidInputError(
      'BAD_OPTION',
      'source',
      `expected a ReadableStream, Blob, Uint8Array, string or list of { path, text }, got ${describe(source)}`,
    )
  }
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof (value as ReadableStream | null)?.getReader === 'function'
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value
}

/**
 * The first bytes and a sequence that still yields every byte: detection peeks without
 * consuming a stream that cannot be read twice.
 */
export async function peek(
  chunks: AsyncGenerator<Uint8Array>,
  want: number,
): Promise<{ head: Uint8Array; all: AsyncGenerator<Uint8Array> }> {
  const held: Uint8Array[] = []
  let size = 0
  while (size < want) {
    const next = await chunks.next()
    if (next.done) break
    held.push(next.value)
    size += next.value.length
  }
  const head = joinParts(held).subarray(0, want)
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* held
    yield* chunks
  }
  return { head, all: all() }
}

/** The parts as one array; a single part as it is, so a whole file given as bytes is not copied. */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : concatBytes(parts)
}

/** Whether the bytes start a zip archive (a local file header, `PK\x03\x04`). */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04
}

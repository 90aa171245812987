import { JSONParser } from '@streamparser/json'
import { concatBytes } from '../core/bytes.ts'
import { ImportFormatError } from '../core/errors.ts'

const BOM = [0xef, 0xbb, 0xbf]

/** One element of the export's top-level array, with where it ended in the file. */
export interface StreamedItem {
  value: unknown
  /** 1-based position in the array. */
  index: number
  /** Bytes of the file read when the element was complete. */
  bytes: number
}

/**
 * The elements of a top-level JSON array, one at a time, from byte chunks: the parser emits
 * each element when it closes and keeps nothing of those before (`keepStack: false`), so a
 * 200 MB `conversations.json` costs one conversation of heap, not the file.
 *
 * @throws ImportFormatError naming the element being read when the JSON breaks, or when the
 *   file is not an array.
 */
export async function* streamArray(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<StreamedItem> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false })
  let ready: StreamedItem[] = []
  let index = 0
  let bytes = 0
  let sawRoot = false
  parser.onValue = ({ value, stack }) => {
    if (stack.length !== 1) return
    index++
    ready.push({ value, index, bytes })
  }
  const fault = (error: unknown) =>
    new ImportFormatError(
      index + 1,
      `element ${index + 1} of the export: not valid JSON (${(error as Error).message})`,
    )
  // A UTF-8 BOM is not JSON, but some tools write one; it may arrive cut across chunks.
  let lead: Uint8Array | undefined = new Uint8Array(0)
  for await (let chunk of chunks) {
    bytes += chunk.length
    if (lead) {
      chunk = concatBytes([lead, chunk])
      if (chunk.length < 3 && chunk.every((b, i) => b === BOM[i])) {
        lead = chunk
        continue
      }
      lead = undefined
      if (BOM.every((b, i) => chunk[i] === b)) chunk = chunk.subarray(3)
    }
    if (!sawRoot) {
      const first = chunk.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09)
      if (first !== undefined) {
        if (first !== 0x5b) throw new ImportFormatError(1, 'expected a JSON array of conversations')
        sawRoot = true
      }
    }
    try {
      parser.write(chunk)
    } catch (error) {
      throw fault(error)
    }
    for (const item of ready) item.bytes = bytes
    const out = ready
    ready = []
    yield* out
  }
  if (!sawRoot)
    throw new ImportFormatError(1, 'expected a JSON array of conversations, got an empty file')
  if (!parser.isEnded) {
    try {
      parser.end()
    } catch (error) {
      throw fault(error)
    }
  }
  yield* ready
}

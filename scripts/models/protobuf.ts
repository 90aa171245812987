/**
 * The smallest protobuf writer that ONNX needs: varints, fixed32 floats, strings, bytes and
 * nested messages. A message keeps its encoded parts as a list, so 100 MB of weights are copied
 * once, when the file is written, not at every level of nesting.
 */

const TWO_64 = 1n << 64n
const encoder = new TextEncoder()

function varintBytes(value: number | bigint): Uint8Array {
  let v = BigInt(value)
  // Negative int64 values are written as their 64-bit two's complement: always 10 bytes.
  if (v < 0n) v += TWO_64
  const out: number[] = []
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80)
    v >>= 7n
  }
  out.push(Number(v))
  return Uint8Array.from(out)
}

const WIRE_VARINT = 0
const WIRE_LENGTH = 2
const WIRE_FIXED32 = 5

export class ProtoMessage {
  readonly parts: Uint8Array[] = []
  length = 0

  #push(bytes: Uint8Array): this {
    this.parts.push(bytes)
    this.length += bytes.length
    return this
  }

  #tag(field: number, wire: number): this {
    return this.#push(varintBytes((field << 3) | wire))
  }

  varint(field: number, value: number | bigint): this {
    return this.#tag(field, WIRE_VARINT).#push(varintBytes(value))
  }

  float(field: number, value: number): this {
    const bytes = new Uint8Array(4)
    new DataView(bytes.buffer).setFloat32(0, value, true)
    return this.#tag(field, WIRE_FIXED32).#push(bytes)
  }

  bytes(field: number, value: Uint8Array): this {
    return this.#tag(field, WIRE_LENGTH).#push(varintBytes(value.length)).#push(value)
  }

  string(field: number, value: string): this {
    return this.bytes(field, encoder.encode(value))
  }

  message(field: number, value: ProtoMessage): this {
    this.#tag(field, WIRE_LENGTH).#push(varintBytes(value.length))
    for (const part of value.parts) this.#push(part)
    return this
  }

  /** The whole encoding as one buffer. */
  toBytes(): Uint8Array {
    const out = new Uint8Array(this.length)
    let at = 0
    for (const part of this.parts) {
      out.set(part, at)
      at += part.length
    }
    return out
  }
}

/**
 * Writes ONNX `ModelProto`s with the field numbers of onnx/onnx.proto (IR version 8, opset 17).
 * Only what a BERT encoder needs: float/int64 initialisers, int/ints/float attributes, tensor
 * value infos with symbolic dimensions.
 */

import { ProtoMessage } from './protobuf.ts'

/** ONNX `TensorProto.DataType`. */
const FLOAT = 1
const INT64 = 7

/** ONNX `AttributeProto.AttributeType`. */
const ATTR_FLOAT = 1
const ATTR_INT = 2
const ATTR_INTS = 7

export const IR_VERSION = 8
export const OPSET = 17

export type Attribute = { i: number } | { f: number } | { ints: number[] }
export type ElemType = 'float' | 'int64'

/** A dimension: a fixed size or a symbolic name such as `'batch_size'`. */
export type Dim = number | string

function attribute(name: string, value: Attribute): ProtoMessage {
  const m = new ProtoMessage().string(1, name)
  if ('i' in value) m.varint(3, value.i).varint(20, ATTR_INT)
  else if ('f' in value) m.float(2, value.f).varint(20, ATTR_FLOAT)
  else {
    for (const v of value.ints) m.varint(8, v)
    m.varint(20, ATTR_INTS)
  }
  return m
}

function valueInfo(name: string, elem: ElemType, dims: Dim[]): ProtoMessage {
  const shape = new ProtoMessage()
  for (const d of dims) {
    const dim = new ProtoMessage()
    if (typeof d === 'number') dim.varint(1, d)
    else dim.string(2, d)
    shape.message(1, dim)
  }
  const tensorType = new ProtoMessage()
    .varint(1, elem === 'float' ? FLOAT : INT64)
    .message(2, shape)
  return new ProtoMessage().string(1, name).message(2, new ProtoMessage().message(1, tensorType))
}

/** Builds one graph: add initialisers and nodes, then {@link GraphBuilder.toModel}. */
export class GraphBuilder {
  readonly #nodes: ProtoMessage[] = []
  readonly #initializers: ProtoMessage[] = []
  readonly #inputs: ProtoMessage[] = []
  readonly #outputs: ProtoMessage[] = []
  readonly #names = new Set<string>()
  #counter = 0
  /** Bytes of weights added so far. */
  weightBytes = 0

  input(name: string, elem: ElemType, dims: Dim[]): string {
    this.#inputs.push(valueInfo(name, elem, dims))
    this.#names.add(name)
    return name
  }

  output(name: string, elem: ElemType, dims: Dim[]): void {
    this.#outputs.push(valueInfo(name, elem, dims))
  }

  /** Adds a constant tensor; a `dims` of `[]` makes a scalar. Returns its name. */
  initializer(name: string, dims: number[], data: Float32Array | BigInt64Array): string {
    if (this.#names.has(name)) throw new Error(`duplicate tensor name ${name}`)
    const size = dims.reduce((a, b) => a * b, 1)
    if (data.length !== size) throw new Error(`${name}: ${data.length} values for shape [${dims}]`)
    const t = new ProtoMessage()
    for (const d of dims) t.varint(1, d)
    t.varint(2, data instanceof Float32Array ? FLOAT : INT64)
    t.string(8, name)
    // raw_data is little-endian; typed arrays are in host order, little-endian on every
    // platform Node and browsers run on.
    t.bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
    this.#initializers.push(t)
    this.#names.add(name)
    this.weightBytes += data.byteLength
    return name
  }

  floats(name: string, values: number[]): string {
    return this.initializer(name, [values.length], Float32Array.from(values))
  }

  scalar(name: string, value: number): string {
    return this.initializer(name, [], Float32Array.of(value))
  }

  int64s(name: string, values: number[]): string {
    return this.initializer(name, [values.length], BigInt64Array.from(values.map(BigInt)))
  }

  /** Adds a node with one output and returns the output's name (`output` or a fresh one). */
  node(
    op: string,
    inputs: string[],
    attributes: Record<string, Attribute> = {},
    output?: string,
  ): string {
    const name = `${op}_${this.#counter++}`
    const out = output ?? `${name}_out`
    const n = new ProtoMessage()
    for (const input of inputs) n.string(1, input)
    n.string(2, out).string(3, name).string(4, op)
    for (const [key, value] of Object.entries(attributes)) n.message(5, attribute(key, value))
    this.#nodes.push(n)
    return out
  }

  toModel(graphName: string, producerVersion: string): ProtoMessage {
    const graph = new ProtoMessage()
    for (const n of this.#nodes) graph.message(1, n)
    graph.string(2, graphName)
    for (const t of this.#initializers) graph.message(5, t)
    for (const i of this.#inputs) graph.message(11, i)
    for (const o of this.#outputs) graph.message(12, o)
    return new ProtoMessage()
      .varint(1, IR_VERSION)
      .string(2, 'engram-make-models')
      .string(3, producerVersion)
      .message(7, graph)
      .message(8, new ProtoMessage().string(1, '').varint(2, OPSET))
  }
}

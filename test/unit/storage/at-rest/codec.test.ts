import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeValue, encodeValue } from '../../../../src/storage/at-rest/codec.ts'

describe('the at-rest value codec', () => {
  it('gives back any JSON value it encoded', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON itself turns -0 into 0; the codec promises JSON's equality, not more.
        expect(decodeValue(encodeValue(value))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })

  it('keeps typed arrays as their own type, byte for byte, anywhere in the value', () => {
    fc.assert(
      fc.property(fc.float32Array({ maxLength: 64 }), fc.int8Array({ maxLength: 33 }), (f, i) => {
        const value = { vector: f, nested: [{ codes: i, scales: new Float32Array(f) }], n: 3 }
        const back = decodeValue(encodeValue(value)) as typeof value
        expect(back.vector).toBeInstanceOf(Float32Array)
        expect(back.nested[0]!.codes).toBeInstanceOf(Int8Array)
        expect([...back.vector]).toEqual([...f])
        expect([...back.nested[0]!.codes]).toEqual([...i])
        expect(back.n).toBe(3)
      }),
    )
  })

  it('keeps non-finite numbers that JSON would turn into null', () => {
    const back = decodeValue(encodeValue({ a: Number.NEGATIVE_INFINITY, b: [Number.NaN, 1] }))
    expect(back).toEqual({ a: Number.NEGATIVE_INFINITY, b: [Number.NaN, 1] })
  })

  it('reads a typed array stored at an odd offset of a larger buffer', () => {
    const encoded = encodeValue({ v: new Float32Array([1.5, -2]) })
    const shifted = new Uint8Array(encoded.length + 3)
    shifted.set(encoded, 3)
    const back = decodeValue(shifted.subarray(3)) as { v: Float32Array }
    expect([...back.v]).toEqual([1.5, -2])
  })

  it('handles a typed array at the root, in nested lists, and leaves its input untouched', () => {
    expect([...(decodeValue(encodeValue(new Int16Array([-3, 7]))) as Int16Array)]).toEqual([-3, 7])
    const shared = { v: new Uint16Array([9]) }
    const value = { list: [[shared, 1], [shared]], again: shared }
    const back = decodeValue(encodeValue(value)) as typeof value
    expect(back.list[1]![0]).toEqual({ v: new Uint16Array([9]) })
    expect(back.again.v).toBeInstanceOf(Uint16Array)
    expect(value.again.v).toBeInstanceOf(Uint16Array)
    expect(value.list[0]![0]).toBe(shared)
  })

  it('refuses a value it could not give back (a DataView)', () => {
    expect(() => encodeValue({ view: new DataView(new ArrayBuffer(4)) })).toThrow(TypeError)
  })
})

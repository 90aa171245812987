import * as Comlink from 'comlink'
import type { RecallOptions, RememberItem, RememberOptions } from '../core/types.ts'
import type { MemoryMethod } from '../host/protocol.ts'

/**
 * A call's arguments as they go over the port. Three methods need more than a structured
 * clone: precomputed vectors are transferred, not copied, and `recall`'s `select` hook becomes
 * a third argument wrapped in `Comlink.proxy` (see `RemoteMemoryApi`).
 */
export function toWireArguments(method: MemoryMethod, args: unknown[]): unknown[] {
  switch (method) {
    case 'remember':
      return [args[0], transferVector(args[1] as RememberOptions | undefined)]
    case 'rememberMany':
      return [transferVectors(args[0] as RememberItem[])]
    case 'recall':
      return [args[0], ...proxySelect(args[1] as RecallOptions | undefined)]
    default:
      return args
  }
}

/** A function `select` moves out of the options, proxied; anything else is left for the engine to judge. */
function proxySelect(options: RecallOptions | undefined): unknown[] {
  if (typeof options?.select !== 'function') return [options]
  const { select, ...rest } = options
  return [rest, Comlink.proxy(select)]
}

/**
 * Moves a precomputed vector to the worker without copying. The caller's `Float32Array` is
 * detached afterwards; a view into a larger buffer is copied first so the rest survives.
 */
function transferVector(options: RememberOptions | undefined): RememberOptions | undefined {
  if (!(options?.vector instanceof Float32Array)) return options
  const vector = ownBuffer(options.vector, new Set())
  return Comlink.transfer({ ...options, vector }, [vector.buffer as ArrayBuffer])
}

function transferVectors(items: RememberItem[]): RememberItem[] {
  if (!Array.isArray(items)) return items
  const buffers = new Set<ArrayBufferLike>()
  const moved = items.map((item) =>
    item?.vector instanceof Float32Array
      ? { ...item, vector: ownBuffer(item.vector, buffers) }
      : item,
  )
  if (buffers.size === 0) return items
  return Comlink.transfer(moved, [...buffers] as ArrayBuffer[])
}

/** A vector that alone owns a transferable buffer; `seen` collects the buffers to transfer. */
function ownBuffer(vector: Float32Array, seen: Set<ArrayBufferLike>): Float32Array {
  const whole =
    vector.byteOffset === 0 &&
    vector.byteLength === vector.buffer.byteLength &&
    vector.buffer instanceof ArrayBuffer &&
    !seen.has(vector.buffer)
  const own = whole ? vector : vector.slice()
  seen.add(own.buffer)
  return own
}

/**
 * Version vectors: per device, how many versions of one document it has written. They travel
 * inside the sealed body, so the server can neither read nor change them, and they let a device
 * tell a newer version from an older one replayed as a new CouchDB revision (a rollback).
 */
export type VersionVector = Record<string, number>

/** How version `a` stands to version `b`. */
export type VersionOrder = 'equal' | 'before' | 'after' | 'concurrent'

/**
 * @example
 * compareVersions({ d1: 1 }, { d1: 2 }) // => 'before'
 * compareVersions({ d1: 2 }, { d2: 1 }) // => 'concurrent'
 */
export function compareVersions(a: VersionVector, b: VersionVector): VersionOrder {
  let less = false
  let more = false
  for (const device of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[device] ?? 0
    const y = b[device] ?? 0
    if (x < y) less = true
    else if (x > y) more = true
  }
  return less ? (more ? 'concurrent' : 'before') : more ? 'after' : 'equal'
}

/** The least version that has seen every one of `versions` (the pointwise maximum). */
export function joinVersions(...versions: readonly VersionVector[]): VersionVector {
  const out: VersionVector = {}
  for (const v of versions) {
    for (const [device, n] of Object.entries(v)) if (n > (out[device] ?? 0)) out[device] = n
  }
  return out
}

/** The version `device` writes next after `base`. */
export function nextVersion(base: VersionVector | undefined, device: string): VersionVector {
  return { ...base, [device]: (base?.[device] ?? 0) + 1 }
}

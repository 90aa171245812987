import memoryAdapter from 'pouchdb-adapter-memory'
import type { Memory } from '../../../src/core/types.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { type SyncOptions, type SyncStatus, startSync } from '../../../src/sync/index.ts'
import { Pouch, type PouchDatabase } from '../../../src/sync/pouch.ts'
import { freshIdb, openTestEngine } from '../../helpers/engine.ts'

Pouch.plugin(memoryAdapter)

let mirrors = 0

/** One device: an engine over its own fake IndexedDB, and its own in-memory mirror. */
export interface Device {
  engine: MemoryEngine
  mirror: PouchDatabase
  /** The device's clock: tests move it to order writes. */
  clock: { now: number }
  /** Opens another tab of this device's memory: the same database, its own engine. */
  openTab(): Promise<MemoryEngine>
}

export async function openDevice(start = 1_750_000_000_000): Promise<Device> {
  const clock = { now: start }
  const idb = freshIdb()
  const name = `device-${++mirrors}`
  const engine = await openTestEngine({ name, ...idb, clock: () => clock.now })
  const mirror = new Pouch(`mirror-${mirrors}`, { adapter: 'memory' }) as PouchDatabase
  const openTab = () => openTestEngine({ name, ...idb, clock: () => clock.now })
  return { engine, mirror, clock, openTab }
}

/** An HKDF key from fixed bytes: the passphrase path's slow KDF has its own test. */
export async function testKey(seed = 7): Promise<CryptoKey> {
  const bytes = new Uint8Array(32).map((_, i) => (i * 31 + seed) & 0xff)
  return crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey'])
}

/** One complete one-shot sync of `device`; its last status. */
export async function syncOnce(
  device: Device,
  options: Omit<SyncOptions, 'mirror' | 'live'>,
): Promise<SyncStatus> {
  const handle = await startSync(device.engine, { ...options, mirror: device.mirror, live: false })
  const status = await handle.done
  if (status.state !== 'complete') throw new Error(`sync ended ${status.state}`)
  return status
}

/**
 * One-shot syncs of each device in turn until a whole round moves nothing (no document pushed,
 * pulled or applied on any device), at most `rounds` rounds: convergence is asserted as "quiet
 * within N rounds", not after a fixed count. Returns the rounds it took.
 */
export async function syncUntilQuiet(
  devices: readonly Device[],
  options: Omit<SyncOptions, 'mirror' | 'live'>,
  rounds = 6,
): Promise<number> {
  for (let round = 1; round <= rounds; round++) {
    let moved = 0
    for (const device of devices) {
      const s = await syncOnce(device, options)
      moved += s.pushed + s.pulled + s.applied
    }
    if (moved === 0) return round
  }
  throw new Error(`sync not quiet within ${rounds} rounds`)
}

/** Every memory of a device, by text, with the fields a test compares. */
export async function contents(engine: MemoryEngine): Promise<Map<string, Memory>> {
  const page = await engine.list({ limit: 1000 })
  return new Map(page.items.map((m) => [m.text, m]))
}

// The replicator's timing is its own: the sync tests wait with the one helper, which the test's
// timeout bounds.
export { eventually } from '../../helpers/eventually.ts'

/**
 * Regression (found by the closed-underneath sweep once its survivals were counted from the
 * checks): recall read the relations table without translating a storage failure, so a
 * connection that closed underneath while recall read the edges surfaced a raw Dexie
 * `DatabaseClosedError` instead of `MemoryClosedError`.
 */
import { describe, expect, it } from 'vitest'
import { EngramError, MemoryClosedError } from '../../../../src/core/errors.ts'
import type { EngramDatabase } from '../../../../src/storage/index.ts'
import { closingEngines } from '../../../helpers/engine.ts'

const engine = closingEngines()

/** Closes the connection underneath the engine at its next read of the relations table. */
function closeOnEdgeRead() {
  const trap = { armed: false, sprung: 0 }
  const onDatabase = (db: EngramDatabase) => {
    db.use({
      stack: 'dbcore',
      name: 'close-on-edge-read',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name)
          if (name !== 'relations') return table
          const spring = () => {
            if (!trap.armed) return
            trap.armed = false
            trap.sprung++
            db.close()
          }
          return {
            ...table,
            query: (req) => {
              spring()
              return table.query(req)
            },
            openCursor: (req) => {
              spring()
              return table.openCursor(req)
            },
            getMany: (req) => {
              spring()
              return table.getMany(req)
            },
          }
        },
      }),
    })
  }
  return { trap, onDatabase }
}

describe('recall on a connection that closes underneath', () => {
  it('rejects with MemoryClosedError when the close lands on the edge read, then answers again', async () => {
    const { trap, onDatabase } = closeOnEdgeRead()
    const e = await engine({ onDatabase })
    await e.remember('The spare key is under the blue pot')
    trap.armed = true
    const error = await e.recall('spare key', { log: false }).catch((thrown: unknown) => thrown)
    expect(trap.sprung).toBe(1)
    expect(error).toBeInstanceOf(EngramError)
    expect(error).toBeInstanceOf(MemoryClosedError)
    // The next call reopens the connection.
    const { hits } = await e.recall('spare key', { log: false })
    expect(hits[0]?.text).toBe('The spare key is under the blue pot')
  })
})

/**
 * An origin refused on open, over a real MessageChannel: the origin host throws, and the one
 * `'throw'` transfer handler brings the refusal to the embedding page as its own class.
 */
import * as Comlink from 'comlink'
import { afterEach, describe, expect, it } from 'vitest'
import { watchEndpoint } from '../../../src/client/endpoint-watch.ts'
import { createOriginHost } from '../../../src/connect/origin-host.ts'
import { AccessDeniedError } from '../../../src/core/errors.ts'
import type { MemoryHost } from '../../../src/host/protocol.ts'

const ports: MessagePort[] = []
afterEach(() => {
  for (const port of ports.splice(0)) port.close()
})

describe('createOriginHost over a MessageChannel', () => {
  it('refuses a revoked origin on open with AccessDeniedError and its origin, opening nothing', async () => {
    let opened = 0
    const inner: MemoryHost = {
      open: async () => {
        opened++
        throw new Error('must not open')
      },
      dispose: async () => {},
    }
    const origin = 'https://revoked.example'
    const host = createOriginHost(
      inner,
      { name: 'owner' },
      {
        origin,
        namespaces: async () => {
          throw new AccessDeniedError(origin, `${origin} was revoked in Connected sites`)
        },
      },
    )
    const { port1, port2 } = new MessageChannel()
    ports.push(port1, port2)
    Comlink.expose(host, port1)
    const link = watchEndpoint(port2, () => {})
    const remote = Comlink.wrap<MemoryHost>(port2)
    const error = await link.guard(remote.open({ name: 'asked' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AccessDeniedError)
    expect(error).toMatchObject({
      code: 'ACCESS_DENIED',
      origin,
      message: `${origin} was revoked in Connected sites`,
    })
    expect(opened).toBe(0)
  })
})

/// <reference lib="webworker" />
/**
 * The memory worker: exposes a {@link MemoryHost} whose `open()` returns the memory as a Comlink
 * proxy. Nothing else runs here; the host itself (`src/host/`) also serves a `MessagePort`.
 */
import * as Comlink from 'comlink'
import { createMemoryHost } from '../host/memory-host.ts'
import type { MemoryHost } from '../host/protocol.ts'

const host: MemoryHost = createMemoryHost()
Comlink.expose(host)

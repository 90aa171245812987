/// <reference lib="webworker" />
/**
 * The memory worker: exposes a {@link MemoryHost} whose `open()` returns the engine as a
 * Comlink proxy. Nothing else runs here.
 */
import * as Comlink from 'comlink'
import { createMemoryHost } from './memory-host.ts'

Comlink.expose(createMemoryHost())

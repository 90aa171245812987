/**
 * Node's `events` for browsers: PouchDB imports `EventEmitter` from `events` and leaves the
 * polyfill to the bundler, which Vite and rolldown do not supply. The builds that reach PouchDB
 * for a browser (the app, the worker, `dist/vendor/pouchdb.js`) alias `events` to this module.
 *
 * The part of the API PouchDB uses, with Node's semantics: listeners run synchronously in the
 * order added, `once` listeners are removed before they run, an `error` with no listener
 * throws, and adding or removing a listener emits `newListener` / `removeListener` (PouchDB's
 * `Sync` attaches its push and pull listeners lazily on those). The methods are assigned to the prototype, not declared in a class, because
 * `pouchdb-core` copies them onto its constructor by `Object.keys(EventEmitter.prototype)`,
 * which sees only enumerable properties.
 */
type Listener = (...args: unknown[]) => void

interface Wrapped extends Listener {
  listener?: Listener
}

export interface EventEmitter {
  on(type: string, listener: Listener): this
  addListener(type: string, listener: Listener): this
  once(type: string, listener: Listener): this
  removeListener(type: string, listener: Listener): this
  off(type: string, listener: Listener): this
  removeAllListeners(type?: string): this
  emit(type: string, ...args: unknown[]): boolean
  listeners(type: string): Listener[]
  listenerCount(type: string): number
  setMaxListeners(n: number): this
}

interface EventEmitterStatic {
  new (): EventEmitter
  (this: EventEmitter): void
  prototype: EventEmitter
  listenerCount(emitter: EventEmitter, type: string): number
  EventEmitter: EventEmitterStatic
}

const LISTENERS = Symbol('listeners')

type Holder = EventEmitter & { [LISTENERS]?: Map<string, Wrapped[]> }

function table(emitter: Holder): Map<string, Wrapped[]> {
  if (!emitter[LISTENERS]) {
    Object.defineProperty(emitter, LISTENERS, { value: new Map(), enumerable: false })
  }
  return emitter[LISTENERS]!
}

const EventEmitter = function EventEmitter(this: Holder) {
  table(this)
} as unknown as EventEmitterStatic

const proto = EventEmitter.prototype as Holder

proto.on = function on(this: Holder, type, listener) {
  const all = table(this)
  if (all.has('newListener')) {
    this.emit('newListener', type, (listener as Wrapped).listener ?? listener)
  }
  all.set(type, [...(all.get(type) ?? []), listener])
  return this
}
proto.addListener = proto.on

proto.once = function once(this: Holder, type, listener) {
  const wrapped: Wrapped = (...args) => {
    this.removeListener(type, wrapped)
    listener.apply(this, args)
  }
  wrapped.listener = listener
  return this.on(type, wrapped)
}

proto.removeListener = function removeListener(this: Holder, type, listener) {
  const all = table(this)
  const list = all.get(type)
  if (!list) return this
  const at = list.findLastIndex((l) => l === listener || l.listener === listener)
  if (at < 0) return this
  const rest = list.filter((_, i) => i !== at)
  if (rest.length === 0) all.delete(type)
  else all.set(type, rest)
  if (all.has('removeListener')) this.emit('removeListener', type, list[at]!.listener ?? listener)
  return this
}
proto.off = proto.removeListener

proto.removeAllListeners = function removeAllListeners(this: Holder, type) {
  const all = table(this)
  if (!all.has('removeListener')) {
    if (type === undefined) all.clear()
    else all.delete(type)
    return this
  }
  // One by one, last first, so `removeListener` hears each (and itself last), as in Node.
  const types = type === undefined ? [...all.keys()].filter((t) => t !== 'removeListener') : [type]
  if (type === undefined) types.push('removeListener')
  for (const t of types) {
    const list = all.get(t) ?? []
    for (let i = list.length - 1; i >= 0; i--) this.removeListener(t, list[i]!)
  }
  return this
}

proto.emit = function emit(this: Holder, type, ...args) {
  // A copy: a listener that removes itself (or another) must not skip the next one.
  const list = [...(table(this).get(type) ?? [])]
  if (list.length === 0) {
    if (type === 'error') throw args[0] instanceof Error ? args[0] : new Error(String(args[0]))
    return false
  }
  for (const listener of list) listener.apply(this, args)
  return true
}

proto.listeners = function listeners(this: Holder, type) {
  return (table(this).get(type) ?? []).map((l) => l.listener ?? l)
}

proto.listenerCount = function listenerCount(this: Holder, type) {
  return table(this).get(type)?.length ?? 0
}

proto.setMaxListeners = function setMaxListeners(this: Holder) {
  return this
}

EventEmitter.listenerCount = (emitter, type) => emitter.listenerCount(type)
EventEmitter.EventEmitter = EventEmitter

export default EventEmitter
export { EventEmitter }

import { EventEmitter as NodeEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import EventEmitter from '../../../src/sync/event-emitter.ts'

class Feed extends EventEmitter {}

describe('the events stand-in PouchDB gets in browsers', () => {
  it('calls listeners in the order added, with the arguments, and once listeners only once', () => {
    const feed = new Feed()
    const heard: string[] = []
    feed.on('change', (a, b) => heard.push(`on ${a} ${b}`))
    feed.once('change', (a) => heard.push(`once ${a}`))
    expect(feed.emit('change', 1, 2)).toBe(true)
    expect(feed.emit('change', 3, 4)).toBe(true)
    expect(heard).toEqual(['on 1 2', 'once 1', 'on 3 4'])
    expect(feed.emit('nothing')).toBe(false)
  })

  it('removes a once listener by the function given, and keeps emitting past one that removes itself', () => {
    const feed = new Feed()
    const heard: string[] = []
    const first = () => heard.push('first')
    feed.once('x', first)
    feed.removeListener('x', first)
    const self = () => {
      heard.push('self')
      feed.removeListener('x', self)
    }
    feed.on('x', self)
    feed.on('x', () => heard.push('next'))
    feed.emit('x')
    feed.emit('x')
    expect(heard).toEqual(['self', 'next', 'next'])
    expect(feed.listenerCount('x')).toBe(1)
    expect(EventEmitter.listenerCount(feed, 'x')).toBe(1)
    feed.removeAllListeners()
    expect(feed.listeners('x')).toEqual([])
  })

  it('announces listeners added and removed, as PouchDB’s Sync relies on', () => {
    const feed = new Feed()
    const heard: string[] = []
    feed.on('newListener', (type) => heard.push(`new ${type}`))
    feed.on('removeListener', (type) => heard.push(`gone ${type}`))
    const listener = () => {}
    feed.once('change', listener)
    feed.removeListener('change', listener)
    feed.on('paused', () => {})
    feed.removeAllListeners('paused')
    expect(heard).toEqual([
      'new removeListener',
      'new change',
      'gone change',
      'new paused',
      'gone paused',
    ])
  })

  it('hears the same events in the same order as Node’s own EventEmitter', () => {
    const script = (Base: new () => NodeEmitter | InstanceType<typeof EventEmitter>) => {
      const feed = new Base() as NodeEmitter
      const log: string[] = []
      feed.on('newListener', (t) => log.push(`new:${String(t)}`))
      feed.on('removeListener', (t) => log.push(`gone:${String(t)}`))
      const a = (x: unknown) => log.push(`a${x}`)
      const b = (x: unknown) => {
        log.push(`b${x}`)
        feed.removeListener('e', a)
      }
      feed.on('e', a)
      feed.once('e', b)
      feed.on('e', a)
      feed.emit('e', 1)
      feed.emit('e', 2)
      log.push(`count:${feed.listenerCount('e')}`)
      feed.removeAllListeners()
      log.push(`after:${feed.listenerCount('e')}:${feed.listenerCount('newListener')}`)
      return log
    }
    expect(script(EventEmitter)).toEqual(script(NodeEmitter))
  })

  it('throws an unheard error event, as Node does', () => {
    const feed = new Feed()
    expect(() => feed.emit('error', new TypeError('boom'))).toThrow(TypeError)
    feed.on('error', () => {})
    expect(feed.emit('error', new TypeError('boom'))).toBe(true)
  })

  it('lists its methods under Object.keys of the prototype, which pouchdb-core copies from', () => {
    const keys = Object.keys(EventEmitter.prototype)
    for (const m of ['on', 'once', 'emit', 'removeListener', 'removeAllListeners', 'listeners'])
      expect(keys).toContain(m)
    // Each emitter keeps its own listeners.
    const a = new Feed()
    const b = new Feed()
    a.on('x', () => {})
    expect(b.listenerCount('x')).toBe(0)
  })
})

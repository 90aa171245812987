import { describe, expect, it } from 'vitest'
import { editInPlace, keyedList } from '../../../src/app/dom.ts'
import { asElement, FakeElement } from './fake-dom.ts'

interface Item {
  id: string
  version: number
}

/** A list and a renderer that counts what it rendered. */
function setUp() {
  const parent = new FakeElement('ul')
  const rendered: string[] = []
  const render = (item: Item): Element => {
    rendered.push(item.id)
    const li = new FakeElement('li')
    li.textContent = `${item.id}@${item.version}`
    return asElement<Element>(li)
  }
  const show = (items: Item[]) =>
    keyedList(asElement<Element>(parent), items, (item) => item.id, render, {
      version: (item) => String(item.version),
      empty: () => {
        const li = new FakeElement('li')
        li.textContent = 'empty'
        return asElement<Element>(li)
      },
    })
  const texts = () => parent.childNodes.map((child) => child.textContent)
  return { parent, rendered, show, texts }
}

const items = (...specs: string[]): Item[] =>
  specs.map((spec) => {
    const [id, version = '1'] = spec.split('@')
    return { id: id!, version: Number(version) }
  })

describe('keyedList', () => {
  it('renders one element per item, in order, each marked with its key', () => {
    const { parent, show, texts } = setUp()
    show(items('a', 'b', 'c'))
    expect(texts()).toEqual(['a@1', 'b@1', 'c@1'])
    expect(parent.childNodes.map((child) => child.getAttribute('data-key'))).toEqual([
      'a',
      'b',
      'c',
    ])
  })

  it('keeps the same elements when the same items come again', () => {
    const { parent, rendered, show } = setUp()
    show(items('a', 'b'))
    const before = [...parent.childNodes]
    show(items('a', 'b'))
    expect(parent.childNodes).toEqual(before)
    expect(parent.childNodes[0]).toBe(before[0])
    expect(rendered).toEqual(['a', 'b'])
  })

  it('moves kept elements into the new order and renders only the new items', () => {
    const { parent, rendered, show, texts } = setUp()
    show(items('a', 'b', 'c'))
    const [a, , c] = parent.childNodes
    show(items('c', 'd', 'a'))
    expect(texts()).toEqual(['c@1', 'd@1', 'a@1'])
    expect(parent.childNodes[0]).toBe(c)
    expect(parent.childNodes[2]).toBe(a)
    expect(rendered).toEqual(['a', 'b', 'c', 'd'])
  })

  it('removes the elements of items no longer listed', () => {
    const { parent, show, texts } = setUp()
    show(items('a', 'b', 'c'))
    const b = parent.childNodes[1]!
    show(items('a', 'c'))
    expect(texts()).toEqual(['a@1', 'c@1'])
    expect(b.parentNode).toBeNull()
  })

  it('renders an item again when its version changed', () => {
    const { parent, show, texts } = setUp()
    show(items('a', 'b'))
    const a = parent.childNodes[0]
    show(items('a@2', 'b'))
    expect(texts()).toEqual(['a@2', 'b@1'])
    expect(parent.childNodes[0]).not.toBe(a)
  })

  it('shows the empty element alone when there are no items, and drops it when some come', () => {
    const { show, texts } = setUp()
    show(items('a'))
    show([])
    expect(texts()).toEqual(['empty'])
    show(items('b'))
    expect(texts()).toEqual(['b@1'])
  })

  it('renders a key listed twice once', () => {
    const { show, texts } = setUp()
    show(items('a', 'a@2', 'b'))
    expect(texts()).toEqual(['a@1', 'b@1'])
  })

  it('leaves an element being edited alone, even when its item changed or left the list', () => {
    const { parent, show, texts } = setUp()
    show(items('a', 'b'))
    const editor = new FakeElement('li')
    editor.textContent = 'editing b'
    editInPlace(asElement<Element>(parent.childNodes[1]!), asElement<Element>(editor))
    expect(editor.getAttribute('data-key')).toBe('b')
    show(items('a', 'b@2'))
    expect(texts()).toEqual(['a@1', 'editing b'])
    show(items('c'))
    expect(texts()).toEqual(['editing b', 'c@1'])
    expect(parent.childNodes[0]).toBe(editor)
  })

  it('renders the row again once the edit is done', () => {
    const { parent, show, texts } = setUp()
    show(items('a', 'b'))
    const editor = new FakeElement('li')
    editor.textContent = 'editing a'
    const edit = editInPlace(asElement<Element>(parent.childNodes[0]!), asElement<Element>(editor))
    show(items('a', 'b'))
    expect(texts()).toEqual(['editing a', 'b@1'])
    edit.done()
    show(items('a', 'b'))
    expect(texts()).toEqual(['a@1', 'b@1'])
  })
})

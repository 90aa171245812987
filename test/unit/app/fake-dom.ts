/**
 * Just enough of the DOM for the app's list and view helpers to run under Node: elements with
 * attributes, children in order, and `hidden`/`textContent`/`dataset`. The project has no DOM
 * library, and these helpers need no more than this.
 */
export class FakeElement {
  parentNode: FakeElement | null = null
  readonly childNodes: FakeElement[] = []
  readonly attributes = new Map<string, string>()
  readonly dataset: Record<string, string> = {}
  hidden = false
  textContent = ''

  constructor(readonly tagName = 'li') {}

  get firstChild(): FakeElement | null {
    return this.childNodes[0] ?? null
  }

  get nextSibling(): FakeElement | null {
    const siblings = this.parentNode?.childNodes ?? []
    return siblings[siblings.indexOf(this) + 1] ?? null
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value)
  }

  hasAttribute(name: string): boolean {
    return this.attributes.has(name)
  }

  removeAttribute(name: string): void {
    this.attributes.delete(name)
  }

  insertBefore(node: FakeElement, before: FakeElement | null): FakeElement {
    node.parentNode?.removeChild(node)
    const at = before ? this.childNodes.indexOf(before) : this.childNodes.length
    this.childNodes.splice(at, 0, node)
    node.parentNode = this
    return node
  }

  appendChild(node: FakeElement): FakeElement {
    return this.insertBefore(node, null)
  }

  removeChild(node: FakeElement): FakeElement {
    this.childNodes.splice(this.childNodes.indexOf(node), 1)
    node.parentNode = null
    return node
  }

  replaceWith(node: FakeElement): void {
    const parent = this.parentNode!
    parent.insertBefore(node, this)
    parent.removeChild(this)
  }
}

/** `fake` typed as the DOM element the helper under test asks for. */
export function asElement<T = HTMLElement>(fake: FakeElement): T {
  return fake as unknown as T
}

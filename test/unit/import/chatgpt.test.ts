import { describe, expect, it } from 'vitest'
import { ImportFormatError } from '../../../src/core/errors.ts'
import { readChatgptConversation } from '../../../src/import/chatgpt.ts'
import { hashSeed, TEST_SEED, uniform } from '../../helpers/random.ts'

type Node = { id: string; parent: string | null; children: string[]; message: unknown }

function message(id: string, role: string, text: string) {
  return {
    id,
    author: { role },
    create_time: 1700000000,
    content: { content_type: 'text', parts: [text] },
  }
}

/** A random message tree: each node has 1..3 children; the path to `leaf` is the one kept. */
function randomTree(seed: number) {
  const next = uniform(seed)
  const mapping: Record<string, Node> = {
    root: { id: 'root', parent: null, children: [], message: null },
  }
  const ids = ['root']
  for (let i = 0; i < 40; i++) {
    const parent = ids[Math.floor(next() * ids.length)]!
    const id = `n${i}`
    const role = i % 2 ? 'assistant' : 'user'
    mapping[id] = { id, parent, children: [], message: message(id, role, `text of ${id}`) }
    mapping[parent]!.children.push(id)
    ids.push(id)
  }
  const leaf = ids[1 + Math.floor(next() * (ids.length - 1))]!
  const path: string[] = []
  for (let at: string | null = leaf; at !== null && at !== 'root'; at = mapping[at]!.parent)
    path.unshift(at)
  return { conversation: { id: 'c', title: 'T', mapping, current_node: leaf }, path }
}

describe('readChatgptConversation', () => {
  it('keeps exactly the messages from the root to current_node, in order, in any tree (seeded)', () => {
    for (let s = 0; s < 50; s++) {
      const { conversation, path } = randomTree(hashSeed(`${TEST_SEED}:${s}`))
      const read = readChatgptConversation(conversation, 1)
      expect(read.turns.map((t) => t.text)).toEqual(path.map((id) => `text of ${id}`))
    }
  })

  it('leaves out system, hidden and image-only messages and keeps the text parts of the rest', () => {
    const mapping = {
      a: { parent: null, children: ['b'], message: message('a', 'system', 'You are ChatGPT') },
      b: {
        parent: 'a',
        children: ['c'],
        message: {
          ...message('b', 'user', 'hidden'),
          metadata: { is_visually_hidden_from_conversation: true },
        },
      },
      c: {
        parent: 'b',
        children: ['d'],
        message: {
          author: { role: 'user' },
          content: {
            content_type: 'multimodal_text',
            parts: [{ asset_pointer: 'file-service://x' }, 'What is this?'],
          },
        },
      },
      d: {
        parent: 'c',
        children: [],
        message: {
          author: { role: 'assistant' },
          content: { content_type: 'multimodal_text', parts: [{ asset_pointer: 'x' }] },
        },
      },
    }
    const read = readChatgptConversation({ id: 'c', mapping, current_node: 'd' }, 1)
    expect(read.turns).toEqual([{ role: 'user', text: 'What is this?' }])
  })

  it('reads create and update times in seconds as epoch milliseconds', () => {
    const mapping = { a: { parent: null, children: [], message: message('a', 'user', 'hi') } }
    const read = readChatgptConversation(
      {
        conversation_id: 'x',
        title: 'Hi',
        create_time: 1705312800.123,
        update_time: 1705316400,
        mapping,
        current_node: 'a',
      },
      1,
    )
    expect(read).toMatchObject({ id: 'x', createdAt: 1705312800123, updatedAt: 1705316400000 })
    expect(read.turns[0]!.at).toBe(1700000000000)
  })

  it('names the conversation when current_node is not in the mapping or a parent loops', () => {
    const loop = { a: { parent: 'b', children: [] }, b: { parent: 'a', children: ['a'] } }
    expect(() =>
      readChatgptConversation({ id: 'c', title: 'Loop', mapping: loop, current_node: 'a' }, 7),
    ).toThrow(/ChatGPT conversation 7 \("Loop"\): node a is its own ancestor/)
    const missing = () => readChatgptConversation({ id: 'c', mapping: {}, current_node: 'z' }, 3)
    expect(missing).toThrow(ImportFormatError)
    expect(missing).toThrow(/current_node "z" is not a node/)
  })
})

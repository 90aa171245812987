import { describe, expect, it } from 'vitest'
import {
  cleanEvidence,
  fromGeneric,
  fromLocomo,
  type LocomoConversation,
  normalizeDiaId,
  sessionDate,
} from '../../../scripts/eval/datasets.ts'

describe('normalizeDiaId', () => {
  it('fixes the malformed forms found in LoCoMo and rejects non-ids', () => {
    expect(normalizeDiaId('D:11:26')).toBe('D11:26')
    expect(normalizeDiaId('D30:05')).toBe('D30:5')
    expect(normalizeDiaId(' D4:3 ')).toBe('D4:3')
    expect(normalizeDiaId('D')).toBeNull()
    expect(normalizeDiaId('')).toBeNull()
    expect(normalizeDiaId('session 4')).toBeNull()
  })
})

describe('cleanEvidence', () => {
  const turns = new Set(['D1:3', 'D8:6', 'D9:17', 'D11:26', 'D30:5'])

  it('splits entries on semicolons and whitespace', () => {
    expect(cleanEvidence(['D8:6; D9:17'], turns)).toEqual(['D8:6', 'D9:17'])
    expect(cleanEvidence(['D8:6 D9:17'], turns)).toEqual(['D8:6', 'D9:17'])
  })

  it('normalises, drops ids naming no turn, and removes duplicates in order', () => {
    expect(cleanEvidence(['D:11:26', 'D', 'D99:1', 'D30:05', 'D11:26'], turns)).toEqual([
      'D11:26',
      'D30:5',
    ])
  })

  it('leaves nothing when no entry names a turn', () => {
    expect(cleanEvidence([], turns)).toEqual([])
    expect(cleanEvidence(['D', 'D2:2'], turns)).toEqual([])
  })
})

describe('sessionDate', () => {
  it('reads LoCoMo session times as ISO dates', () => {
    expect(sessionDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08')
    expect(sessionDate('10:37 am on 27 June, 2023')).toBe('2023-06-27')
    expect(sessionDate('sometime')).toBeNull()
  })
})

// A made-up two-session conversation in LoCoMo's shape: no real data.
const conversation: LocomoConversation = {
  sample_id: 'conv-x',
  conversation: {
    speaker_a: 'Ana',
    speaker_b: 'Ben',
    session_1_date_time: '9:00 am on 2 March, 2024',
    session_1: [
      { speaker: 'Ana', dia_id: 'D1:1', text: 'I adopted a cat.' },
      { speaker: 'Ben', dia_id: 'D1:2', text: 'Nice!', blip_caption: 'a photo of a cat' },
    ],
    session_2_date_time: '9:00 am on 9 March, 2024',
    session_2: [{ speaker: 'Ana', dia_id: 'D2:1', text: 'The cat is called Miso.' }],
  },
  observation: {
    session_1_observation: { Ana: [['Ana adopted a cat.', 'D1:1']] },
    session_2_observation: { Ana: [['Ana named her cat Miso.', ['D2:1', 'D1:1']]] },
  },
  qa: [
    { question: 'What pet did Ana adopt?', evidence: ['D1:1'], category: 1 },
    { question: "What is the cat's name?", evidence: ['D:2:01'], category: 4 },
    { question: 'What did Ben say?', evidence: ['D1:2'], category: 4 },
    { question: 'Ben adopted a dog?', evidence: ['D1:2'], category: 5 },
    { question: 'Unanswerable', evidence: ['D'], category: 3 },
  ],
}

describe('fromLocomo', () => {
  it('makes each turn a memory prefixed with its speaker, with the session date as meta', () => {
    const set = fromLocomo([conversation], 'fixture', 'turns')
    const [store] = set.stores
    expect(store!.items.map((i) => i.text)).toEqual([
      'Ana: I adopted a cat.',
      'Ben: Nice!',
      'Ana: The cat is called Miso.',
    ])
    expect(store!.items[0]!.keys).toEqual(['D1:1'])
    expect(store!.items[2]!.meta).toMatchObject({ date: '2024-03-09', speaker: 'Ana', session: 2 })
  })

  it('cleans evidence, skips questions left without any, and reports category 5 apart', () => {
    const set = fromLocomo([conversation], 'fixture', 'turns')
    const questions = set.stores[0]!.questions
    expect(questions.map((q) => q.relevant)).toEqual([['D1:1'], ['D2:1'], ['D1:2'], ['D1:2']])
    expect(questions.map((q) => q.kind)).toEqual(['1', '4', '4', '5'])
    expect(set.skipped).toEqual({ 'no evidence after cleaning': 1 })
    expect(set.apart).toEqual(['5'])
  })

  it('credits each observation with every turn it cites and skips questions none cites', () => {
    const set = fromLocomo([conversation], 'fixture', 'observations')
    const [store] = set.stores
    expect(store!.items.map((i) => i.keys)).toEqual([['D1:1'], ['D2:1', 'D1:1']])
    // "What did Ben say?" and the adversarial one cite D1:2, which no observation cites.
    expect(store!.questions.map((q) => q.query)).toEqual([
      'What pet did Ana adopt?',
      "What is the cat's name?",
    ])
    expect(set.skipped).toEqual({
      'no evidence after cleaning': 1,
      'no observation cites the evidence': 2,
    })
  })

  it('moves the speaker and date into tags, aliases or text as the shape asks', () => {
    const tagged = fromLocomo([conversation], 'f', 'turns', {
      speaker: 'text+tag',
      dates: 'tags',
      captions: true,
    })
    const ben = tagged.stores[0]!.items[1]!
    expect(ben.text).toBe('Ben: Nice! [image: a photo of a cat]')
    expect(ben.tags).toEqual(['march', '2024', 'Ben'])
    const aliased = fromLocomo([conversation], 'f', 'turns', {
      speaker: 'alias',
      dates: 'text',
      captions: false,
    })
    const ana = aliased.stores[0]!.items[0]!
    expect(ana.text).toBe('I adopted a cat. (2 March 2024)')
    expect(ana.aliases).toEqual(['Ana'])
  })
})

describe('fromGeneric', () => {
  it('keeps ids as keys, defaults the kind, and skips queries naming no memory', () => {
    const set = fromGeneric({
      name: 'tiny',
      memories: [
        { id: 'm1', text: 'one', tags: ['t'] },
        { id: 'm2', text: 'two', type: 'skill' },
      ],
      queries: [
        { q: 'first', relevant: ['m1', 'gone'], kind: 'keyword' },
        { q: 'second', relevant: ['m2'] },
        { q: 'third', relevant: ['gone'] },
      ],
    })
    expect(set.stores[0]!.items[0]).toEqual({ keys: ['m1'], text: 'one', tags: ['t'] })
    expect(set.stores[0]!.questions).toEqual([
      { query: 'first', relevant: ['m1'], kind: 'keyword' },
      { query: 'second', relevant: ['m2'], kind: 'other' },
    ])
    expect(set.skipped).toEqual({ 'no relevant memory': 1 })
  })
})

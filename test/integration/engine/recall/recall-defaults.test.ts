/**
 * `EngineOptions.recallDefaults` (issue 23 §4): engine-wide defaults of the recall options'
 * own type, merged under each call's options, so a default is never spelled twice.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import type { RecallHit } from '../../../../src/core/types.ts'
import type { EngineOptions } from '../../../../src/engine/engine-options.ts'
import { closingEngines } from '../../../helpers/engine.ts'

const open = closingEngines()

const FACTS = [
  'The deploy script is tools/deploy.sh',
  'The deploy window is Friday afternoon',
  'Deploy keys live in the vault',
  'The deploy checklist has ten steps',
]

async function filled(options: Partial<EngineOptions> = {}) {
  const engine = await open(options)
  await engine.rememberMany(FACTS.map((text) => ({ text })))
  return engine
}

/** The recency factor of a hit, or undefined when none was applied. */
const recency = (hit: RecallHit) => hit.boosts.find((b) => b.name === 'recency')?.factor

describe('recallDefaults', () => {
  it('gives every recall its k, and a call’s own k wins', async () => {
    const engine = await filled({ recallDefaults: { k: 2 } })
    expect((await engine.recall('deploy', { log: false })).hits).toHaveLength(2)
    expect((await engine.recall('deploy', { k: 3, log: false })).hits).toHaveLength(3)
  })

  it('takes boost factors, merged field by field under a call’s, and true keeps them', async () => {
    const engine = await filled({ recallDefaults: { boosts: { recency: 1.5 } } })
    const byDefault = await engine.recall('deploy', { log: false })
    expect(byDefault.hits.map(recency)).toEqual(byDefault.hits.map(() => 1.5))
    const on = await engine.recall('deploy', { boosts: true, log: false })
    expect(on.hits.map(recency)).toEqual(on.hits.map(() => 1.5))
    const own = await engine.recall('deploy', { boosts: { recency: 2 }, log: false })
    expect(own.hits.map(recency)).toEqual(own.hits.map(() => 2))
    const off = await engine.recall('deploy', { boosts: false, log: false })
    expect(off.hits.every((h) => h.boosts.length === 0)).toBe(true)
  })

  it('applies the built-in factors when neither the engine nor the call gives any', async () => {
    const engine = await filled()
    const { hits } = await engine.recall('deploy', { log: false })
    expect(hits.map(recency)).toEqual(hits.map(() => 1.2))
    const off = await filled({ recallDefaults: { boosts: false } })
    expect(
      (await off.recall('deploy', { log: false })).hits.every((h) => h.boosts.length === 0),
    ).toBe(true)
    const back = await off.recall('deploy', { boosts: true, log: false })
    expect(back.hits.map(recency)).toEqual(back.hits.map(() => 1.2))
  })

  it('merges weights and selectOptions by field', async () => {
    const engine = await filled({ recallDefaults: { selectOptions: { keep: 1 } } })
    const { hits, selection } = await engine.recall('deploy', {
      selectOptions: { candidates: 2 },
      select: (_q, shown) => {
        expect(shown).toHaveLength(2)
        return shown.map((h) => h.id)
      },
      log: false,
    })
    expect(selection).toBe('applied')
    expect(hits).toHaveLength(1)
  })

  it('is checked at open like a recall’s options, each error naming recallDefaults.<field>', async () => {
    const bad: [unknown, string][] = [
      [{ k: 0 }, 'recallDefaults.k'],
      [{ mode: 'psychic' }, 'recallDefaults.mode'],
      [{ boosts: { recency: -1 } }, 'recallDefaults.boosts.recency'],
      [{ boosts: 'yes' }, 'recallDefaults.boosts'],
      [{ floor: { minCosine: 3 } }, 'recallDefaults.floor.minCosine'],
      [{ weights: { vector: -1 } }, 'recallDefaults.weights.vector'],
      [{ select: () => [] }, 'recallDefaults.select'],
      ['fast', 'recallDefaults'],
    ]
    for (const [recallDefaults, field] of bad) {
      const opened = open({ recallDefaults: recallDefaults as EngineOptions['recallDefaults'] })
      await expect(opened).rejects.toBeInstanceOf(InvalidInputError)
      await expect(opened).rejects.toMatchObject({ code: 'BAD_OPTION', field })
    }
  })
})

describe('retrieval, the engine-only tuning', () => {
  it('refuses the names that moved (k, boosts) or were renamed (candidates)', async () => {
    for (const name of ['k', 'boosts', 'candidates']) {
      const opened = open({ retrieval: { [name]: 5 } as EngineOptions['retrieval'] })
      await expect(opened).rejects.toMatchObject({ code: 'BAD_OPTION', field: `retrieval.${name}` })
    }
  })

  it('takes listDepth: candidates per list before fusion', async () => {
    const engine = await filled({ retrieval: { listDepth: 1 } })
    const { hits } = await engine.recall('deploy', { mode: 'keyword', log: false })
    expect(hits).toHaveLength(1)
    await expect(open({ retrieval: { listDepth: 0 } })).rejects.toMatchObject({
      field: 'retrieval.listDepth',
    })
  })
})

import { describe, expect, it } from 'vitest'
import type { RecallHit } from '../../../../src/core/types.ts'
import { KeywordIndex } from '../../../../src/engine/index/keyword-index.ts'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'
import { highlightHits } from '../../../../src/engine/recall/highlight.ts'

const hitOf = (text: string) => ({ id: text, text }) as RecallHit

describe('highlightHits', () => {
  it('marks each hit where the query matched, stemmed as the index stems', () => {
    const keyword = new KeywordIndex()
    const hits = [hitOf('Deployed the authHandler today'), hitOf('Nothing here')]
    highlightHits(hits, analyzeQuery('deploying auth handler', keyword), keyword.processTerm)
    expect(hits[0]!.highlights).toEqual([
      [0, 8],
      [13, 24],
    ])
    expect(hits[1]!.highlights).toEqual([])
  })

  it("follows the keyword index's own term processor", () => {
    const unstemmed = new KeywordIndex({ stemming: false })
    const hits = [hitOf('Deployed, then deploy again')]
    highlightHits(hits, analyzeQuery('deploy', unstemmed), unstemmed.processTerm)
    expect(hits[0]!.highlights).toEqual([[15, 21]])
  })
})

import type { MemoryClient, RecallHit, Relation, RelationKind } from '../index.ts'
import { h } from './dom.ts'

/** How a relation reads from the hit's side: outgoing edges and incoming ones. */
const WORDS: Record<RelationKind, { out: string; in: string }> = {
  supersedes: { out: 'supersedes', in: 'superseded by' },
  contradicts: { out: 'contradicts', in: 'contradicts' },
  depends_on: { out: 'depends on', in: 'needed by' },
  related_to: { out: 'related to', in: 'related to' },
}

/** The other memory's text on a chip is cut to this many characters. */
export const CHIP_TEXT_MAX = 48

/** One edge of a hit, as its chip shows it. */
export interface RelationChip {
  kind: RelationKind
  /** The edge as the hit reads it, e.g. `superseded by`. */
  words: string
  otherId: string
  /** The other memory's text, cut to {@link CHIP_TEXT_MAX}; its id when it could not be read. */
  label: string
  /** The whole text, for the chip's tooltip. */
  title: string
  contradiction: boolean
  /** For a hit `expand` pulled in: the rank of the hit whose edge this is. */
  pulledFrom?: number
}

/** Cuts `text` to `max` characters (code points), ending with `…` when cut. */
export function truncate(text: string, max = CHIP_TEXT_MAX): string {
  const points = [...text]
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
}

/**
 * The chips of one hit: one per edge, in the order `relations.of()` gave them. A hit pulled in by
 * `expand` (`via: 'rel'`) hangs off the best-ranked earlier hit it has an edge with (the order
 * recall expands in), and that edge says so.
 *
 * @example
 * relationChips(hit, [{ from: hit.id, to: 'B', kind: 'contradicts', createdAt: 0 }], texts, ranks)
 * // => [{ kind: 'contradicts', words: 'contradicts', otherId: 'B', label: 'The office is…', … }]
 */
export function relationChips(
  hit: Pick<RecallHit, 'id' | 'rank' | 'via'>,
  edges: readonly Relation[],
  texts: ReadonlyMap<string, string>,
  ranks: ReadonlyMap<string, { rank: number; via: RecallHit['via'] }>,
): RelationChip[] {
  const chips = edges
    .filter((e) => e.from === hit.id || e.to === hit.id)
    .map((e): RelationChip => {
      const out = e.from === hit.id
      const otherId = out ? e.to : e.from
      const text = texts.get(otherId)
      return {
        kind: e.kind,
        words: out ? WORDS[e.kind].out : WORDS[e.kind].in,
        otherId,
        label: text === undefined ? otherId : truncate(text),
        title: text ?? otherId,
        contradiction: e.kind === 'contradicts',
      }
    })
  if (hit.via !== 'rel') return chips
  let source: RelationChip | undefined
  for (const chip of chips) {
    const other = ranks.get(chip.otherId)
    if (!other || other.via === 'rel' || other.rank >= hit.rank) continue
    if (!source || other.rank < (ranks.get(source.otherId)?.rank ?? Infinity)) source = chip
  }
  if (source) source.pulledFrom = ranks.get(source.otherId)?.rank
  return chips
}

/** The chips as elements: a contradiction marked as a warning, the edge `expand` followed marked. */
export function renderRelationChips(chips: readonly RelationChip[]): HTMLDivElement | undefined {
  if (chips.length === 0) return undefined
  return h(
    'div',
    { class: 'relations' },
    ...chips.map((chip) =>
      h(
        'span',
        {
          class: `chip chip-relation relation-${chip.kind}${chip.pulledFrom !== undefined ? ' relation-expanded' : ''}`,
          'data-kind': chip.kind,
          'data-other': chip.otherId,
          title:
            chip.pulledFrom !== undefined
              ? `recall followed this edge from hit #${chip.pulledFrom}: ${chip.title}`
              : chip.title,
        },
        chip.pulledFrom !== undefined &&
          h('span', { class: 'relation-from', text: `from #${chip.pulledFrom}` }),
        h('span', { class: 'relation-kind', text: chip.words }),
        ` ${chip.label}`,
      ),
    ),
  )
}

/** Every edge of every hit, and the text of each memory at their far ends. */
export async function loadRelations(
  memory: Pick<MemoryClient, 'relations' | 'get'>,
  hits: readonly RecallHit[],
): Promise<{ edges: Map<string, Relation[]>; texts: Map<string, string> }> {
  const texts = new Map(hits.map((hit) => [hit.id, hit.memory.text]))
  const lists = await Promise.all(hits.map((hit) => memory.relations.of(hit.id)))
  const edges = new Map(hits.map((hit, i) => [hit.id, lists[i] ?? []]))
  const missing = new Set(
    lists.flat().flatMap((e) => [e.from, e.to].filter((id) => !texts.has(id))),
  )
  const found = await Promise.all([...missing].map((id) => memory.get(id)))
  for (const m of found) if (m) texts.set(m.id, m.text)
  return { edges, texts }
}

/**
 * Reads the hits' edges and adds them as chips to the hits' elements (`items[i]` shows
 * `hits[i]`), unless `stale()` says a newer recall replaced them meanwhile. A contradicted hit
 * is outlined and gets a `contradiction` chip in its head.
 */
export async function addRelationChips(
  memory: Pick<MemoryClient, 'relations' | 'get'>,
  hits: readonly RecallHit[],
  items: readonly HTMLElement[],
  stale: () => boolean,
): Promise<void> {
  const { edges, texts } = await loadRelations(memory, hits)
  if (stale()) return
  const ranks = new Map(hits.map((hit) => [hit.id, { rank: hit.rank, via: hit.via }]))
  hits.forEach((hit, i) => {
    const chips = relationChips(hit, edges.get(hit.id) ?? [], texts, ranks)
    const item = items[i]
    const row = renderRelationChips(chips)
    if (!item || !row) return
    item.querySelector('.hit-text')?.after(row)
    if (!chips.some((chip) => chip.contradiction)) return
    item.classList.add('hit-contradicted')
    item
      .querySelector('.hit-score')
      ?.before(h('span', { class: 'chip chip-contradiction', text: 'contradiction' }))
  })
}

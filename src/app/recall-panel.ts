import type { RecallHit, RecallMode, RecallOptions, RecallResult } from '../index.ts'
import type { AppContext, OpenPage } from './context.ts'
import { field, formOf, h, mountCard, textInput } from './dom.ts'
import { describeError } from './field-errors.ts'
import { highlightedHitText } from './highlight-view.ts'
import { PLAINTEXT } from './plaintext.ts'
import { addRelationChips } from './relation-chips.ts'
import { action } from './view.ts'
import { counted, DEGRADED_WORDS } from './words.ts'

const VIA_TITLES: Record<RecallHit['via'], string> = {
  kw: 'found by keywords (BM25)',
  vec: 'found by meaning (embedding cosine)',
  both: 'found by keywords and by meaning',
  alias: 'an exact alias matched',
  tag: 'a tag named in the question matched',
  rel: 'related to another hit (expand)',
  recent: 'among the newest memories (the indexes were unavailable: rebuilding or failed)',
}

/** A recall as the card asked it, so "show them" can ask it again with the floor off. */
interface Asked {
  query: string
  options: RecallOptions
}

/** The card's elements, and a count of recalls shown. */
interface RecallView {
  ctx: AppContext
  form: HTMLFormElement
  list: HTMLOListElement
  meta: HTMLOutputElement
  /** Under the hits: what the relevance floor hid. */
  floorNote: HTMLParagraphElement
  /** Counts recalls, so relations loaded for an older one are not drawn over a newer one. */
  shown: number
}

/** The "Recall" card: hybrid search with every hit's evidence, explanation and relations. */
export function mountRecallPanel(ctx: AppContext): void {
  const query = textInput('query', 'Who is Priya?', { type: 'search' })
  const mode = h(
    'select',
    { name: 'mode' },
    ...(['hybrid', 'keyword', 'semantic'] satisfies RecallMode[]).map((m) =>
      h('option', { value: m, text: m }),
    ),
  )
  const k = h('input', { name: 'k', type: 'number', min: 1, max: 100, value: 5 })
  const expand = h('input', { type: 'checkbox', name: 'expand' })
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Recall' })
  const meta = h('output', { id: 'recall-meta', class: 'result' })
  const form = formOf(
    'recall-form',
    [
      h(
        'div',
        { class: 'row' },
        field('Question', query, { class: 'grow' }),
        h('label', { class: 'field narrow' }, h('span', { text: 'Mode' }), mode),
        field('Hits', k, { class: 'narrow' }),
      ),
    ],
    h(
      'div',
      { class: 'actions' },
      submit,
      h('label', { class: 'check', title: 'recall option expand: 1' }, expand, 'follow relations'),
      meta,
    ),
  )
  const list = h('ol', { id: 'recall-results', class: 'hits', [PLAINTEXT]: true })
  const floorNote = h('p', { id: 'recall-floor', class: 'muted small floor-note', hidden: true })
  mountCard('recall', 'Recall', form, list, floorNote)
  const view: RecallView = { ctx, form, list, meta, floorNote, shown: 0 }
  ctx.on('locked', () => {
    // Relations still loading for the wiped hits must not be drawn.
    view.shown++
    meta.textContent = ''
    floorNote.hidden = true
  })

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const options: RecallOptions = {
      mode: mode.value as RecallMode,
      k: k.value === '' ? undefined : Number(k.value),
      expand: expand.checked ? 1 : 0,
    }
    void ask(view, { query: query.value, options }, submit)
  })
}

/**
 * Runs `asked` and shows it; `above` (the ids the floored recall kept) marks the hits that only
 * a recall with the floor off returns.
 */
function ask(
  view: RecallView,
  asked: Asked,
  trigger: HTMLButtonElement,
  above?: ReadonlySet<string>,
): Promise<boolean> {
  return action(
    view.form,
    trigger,
    async () => {
      const result = await view.ctx.memory.recall(asked.query, asked.options)
      renderResult(view, result, above)
      fillFloorNote(view, result, asked, above)
      view.ctx.emit('recalled', asked.query)
    },
    () => {
      view.shown++
      view.list.replaceChildren()
      view.meta.textContent = ''
      view.floorNote.hidden = true
    },
  )
}

function renderResult(view: RecallView, result: RecallResult, above?: ReadonlySet<string>): void {
  const { list, meta } = view
  const degraded = result.degraded ? ` · ${DEGRADED_WORDS[result.degraded]}` : ''
  meta.textContent = `${counted(result.hits.length, 'hit')} in ${result.tookMs.toFixed(1)} ms${degraded}`
  meta.dataset.degraded = result.degraded ?? ''
  const recall = ++view.shown
  if (result.hits.length === 0) {
    const text =
      result.filtered > 0
        ? 'No hits above the relevance floor: nothing stored seems to be about this.'
        : 'Nothing recalled.'
    list.replaceChildren(h('li', { class: 'empty', text }))
    return
  }
  const open = (target: OpenPage) => view.ctx.emit('open-page', target)
  const items = result.hits.map((hit) =>
    renderHit(hit, open, above !== undefined && !above.has(hit.id)),
  )
  list.replaceChildren(...items)
  addRelationChips(view.ctx.memory, result.hits, items, () => recall !== view.shown).catch(
    (failure: unknown) => {
      if (recall === view.shown) meta.append(` · relations not shown: ${describeError(failure)}`)
    },
  )
}

/** How many hits the floor hid, with "show them"; or, once shown, how many those are. */
function fillFloorNote(
  view: RecallView,
  result: RecallResult,
  asked: Asked,
  above?: ReadonlySet<string>,
): void {
  const note = view.floorNote
  note.replaceChildren()
  if (above) {
    const below = result.hits.filter((hit) => !above.has(hit.id)).length
    note.append(`${matches(below)} below the relevance floor shown, marked “below floor”`)
  } else if (result.filtered > 0) {
    const reveal = h('button', { type: 'button', class: 'link floor-reveal', text: 'show them' })
    const kept = new Set(result.hits.map((hit) => hit.id))
    const unfloored: Asked = { query: asked.query, options: { ...asked.options, floor: false } }
    reveal.addEventListener('click', () => void ask(view, unfloored, reveal, kept))
    note.append(`${weaker(result.filtered)} hidden (relevance floor) — `, reveal)
  }
  note.hidden = note.childNodes.length === 0
}

function weaker(n: number): string {
  return `${n} weaker ${n === 1 ? 'match' : 'matches'}`
}

function matches(n: number): string {
  return `${n} ${n === 1 ? 'match' : 'matches'}`
}

/** One hit with its evidence; `belowFloor` marks a hit that only the floor switched off shows. */
function renderHit(
  hit: RecallHit,
  open: (target: OpenPage) => void,
  belowFloor = false,
): HTMLLIElement {
  const evidence: (HTMLElement | string)[] = []
  if (hit.lists.keyword) {
    evidence.push(
      chip(`kw #${hit.lists.keyword.rank} · bm25 ${hit.lists.keyword.score.toFixed(2)}`, 'rank'),
    )
  }
  if (hit.lists.vector) evidence.push(chip(`vec #${hit.lists.vector.rank}`, 'rank'))
  if (hit.lists.alias) evidence.push(chip(`alias #${hit.lists.alias.rank}`, 'rank'))
  if (hit.lists.tag) evidence.push(chip(`tag #${hit.lists.tag.rank}`, 'rank'))
  if (hit.cosine !== undefined) evidence.push(chip(`cosine ${hit.cosine.toFixed(3)}`, 'cosine'))
  for (const boost of hit.boosts) {
    evidence.push(chip(`${boost.name} ×${boost.factor.toFixed(2)}`, 'boost'))
  }
  return h(
    'li',
    { class: belowFloor ? 'hit below-floor' : 'hit', 'data-id': hit.id },
    h(
      'div',
      { class: 'hit-head' },
      h('span', { class: 'hit-rank', text: `#${hit.rank}` }),
      h('span', { class: `via via-${hit.via}`, title: VIA_TITLES[hit.via], text: hit.via }),
      ...evidence,
      hit.flagged && chip('flagged', 'flag'),
      belowFloor && chip('below floor', 'floor'),
      h('span', {
        class: 'hit-score',
        title: `fused ${hit.fused.toFixed(4)}`,
        text: hit.score.toFixed(4),
      }),
    ),
    renderPageRef(hit, open),
    h('p', { class: 'hit-text' }, ...highlightedHitText(hit.text, hit.highlights)),
    hit.explanation && h('p', { class: 'explanation', text: hit.explanation }),
    hit.memory.tags.length > 0 &&
      h('div', { class: 'tags' }, ...hit.memory.tags.map((tag) => chip(tag, 'tag'))),
  )
}

function chip(text: string, kind: string): HTMLSpanElement {
  return h('span', { class: `chip chip-${kind}`, text })
}

/** A chunk hit's page: its title (opens the page at this chunk), headings and collapsed rest. */
function renderPageRef(
  hit: RecallHit,
  openPage: (target: OpenPage) => void,
): HTMLElement | undefined {
  const page = hit.page
  if (!page) return undefined
  const open = h('button', {
    type: 'button',
    class: 'link page-open',
    title: 'Open the page at this passage',
    text: page.title,
  })
  open.addEventListener('click', () =>
    openPage({
      pageId: page.pageId,
      start: page.start,
      end: page.end,
      // A summary's offsets are not the chunk's.
      highlights: hit.resolution === 'summary' ? undefined : hit.highlights,
    }),
  )
  return h(
    'p',
    { class: 'hit-page' },
    open,
    page.headingPath.length > 0 &&
      h('span', { class: 'hit-headings', text: page.headingPath.join(' › ') }),
    hit.more !== undefined &&
      hit.more > 0 &&
      h('span', { class: 'muted small hit-more', text: `+${hit.more} more from this page` }),
  )
}

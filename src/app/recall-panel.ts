import type { Degraded, RecallHit, RecallMode, RecallResult } from '../index.ts'
import type { AppContext } from './context.ts'
import { busy, byId, h } from './dom.ts'
import { clearErrors, describeError, showError } from './field-errors.ts'
import { highlightedHitText } from './highlight-view.ts'
import { openPage } from './pages-panel.ts'
import { addRelationChips } from './relation-chips.ts'

/** Dispatched on `window` after a recall is shown; `detail` is the query. */
export const RECALLED = 'engram:recalled'

const VIA_TITLES: Record<RecallHit['via'], string> = {
  kw: 'found by keywords (BM25)',
  vec: 'found by meaning (embedding cosine)',
  both: 'found by keywords and by meaning',
  alias: 'an exact alias matched',
  tag: 'a tag named in the question matched',
  rel: 'related to another hit (expand)',
  recent: 'among the newest memories (the indexes were rebuilding)',
}

const DEGRADED_WORDS: Record<Degraded, string> = {
  'no-embedder': 'keyword-only: no embedding model is configured',
  loading: 'keyword-only: the model is still loading',
  failed: 'keyword-only: the model could not load',
  reembedding: 'keyword-only: memories are being re-embedded for a new model',
  recency: 'newest memories only: the indexes are being rebuilt',
}

/** The "Recall" card: hybrid search with every hit's evidence, explanation and relations. */
export function mountRecallPanel(ctx: AppContext): void {
  const form = byId<HTMLFormElement>('recall-form')
  const list = byId<HTMLOListElement>('recall-results')
  const meta = byId<HTMLOutputElement>('recall-meta')
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const query = form.elements.namedItem('query') as HTMLInputElement
  const mode = form.elements.namedItem('mode') as HTMLSelectElement
  const k = form.elements.namedItem('k') as HTMLInputElement
  const expand = h('input', { type: 'checkbox', name: 'expand' })
  submit.after(
    h('label', { class: 'check', title: 'recall option expand: 1' }, expand, 'follow relations'),
  )
  /** Counts recalls, so relations loaded for an older one are not drawn over a newer one. */
  let shownRecall = 0

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    clearErrors(form)
    try {
      const result = await busy(submit, () =>
        ctx.memory.recall(query.value, {
          mode: mode.value as RecallMode,
          k: k.value === '' ? undefined : Number(k.value),
          expand: expand.checked ? 1 : 0,
        }),
      )
      render(result)
      dispatchEvent(new CustomEvent(RECALLED, { detail: query.value }))
    } catch (error) {
      shownRecall++
      list.replaceChildren()
      meta.textContent = ''
      showError(form, error)
    }
  })

  function render(result: RecallResult): void {
    const degraded = result.degraded ? ` · ${DEGRADED_WORDS[result.degraded]}` : ''
    meta.textContent = `${result.hits.length} hit${result.hits.length === 1 ? '' : 's'} in ${result.tookMs.toFixed(1)} ms${degraded}`
    meta.dataset.degraded = result.degraded ?? ''
    if (result.hits.length === 0) {
      list.replaceChildren(h('li', { class: 'empty', text: 'Nothing recalled.' }))
      return
    }
    const items = result.hits.map(renderHit)
    list.replaceChildren(...items)
    const recall = ++shownRecall
    addRelationChips(ctx.memory, result.hits, items, () => recall !== shownRecall).catch(
      (failure: unknown) => {
        if (recall === shownRecall) meta.append(` · relations not shown: ${describeError(failure)}`)
      },
    )
  }
}

function renderHit(hit: RecallHit): HTMLLIElement {
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
    { class: 'hit', 'data-id': hit.id },
    h(
      'div',
      { class: 'hit-head' },
      h('span', { class: 'hit-rank', text: `#${hit.rank}` }),
      h('span', { class: `via via-${hit.via}`, title: VIA_TITLES[hit.via], text: hit.via }),
      ...evidence,
      hit.flagged && chip('flagged', 'flag'),
      h('span', {
        class: 'hit-score',
        title: `fused ${hit.fused.toFixed(4)}`,
        text: hit.score.toFixed(4),
      }),
    ),
    renderPageRef(hit),
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
function renderPageRef(hit: RecallHit): HTMLElement | undefined {
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

import { type ListOptions, TIERS } from '../index.ts'
import { h } from './dom.ts'

/** What the Browse form filters by: type, tag, tier, live or expired, flagged for review. */
export type BrowseFilter = Pick<ListOptions, 'type' | 'tag' | 'tier' | 'expired' | 'needsReview'>

/** The "expired" select's values and what each asks `list()` for. */
const EXPIRED_CHOICES: readonly { value: string; label: string; expired?: boolean }[] = [
  { value: '', label: 'live + expired' },
  { value: 'live', label: 'live only', expired: false },
  { value: 'expired', label: 'expired only', expired: true },
]

/**
 * Reads the filters from the Browse form's data; an empty field filters nothing.
 *
 * @example
 * browseFilter(new FormData(form)) // tier "working", "expired only", needs review ticked
 * // => { tier: 'working', expired: true, needsReview: true }
 */
export function browseFilter(data: FormData): BrowseFilter {
  const filter: BrowseFilter = {}
  const type = String(data.get('type') ?? '').trim()
  const tag = String(data.get('tag') ?? '').trim()
  if (type) filter.type = type
  if (tag) filter.tag = tag
  const tier = String(data.get('tier') ?? '')
  // An unknown tier is passed on, so `list()` answers it with its typed error.
  if (tier !== '') filter.tier = tier as BrowseFilter['tier']
  const expired = EXPIRED_CHOICES.find((c) => c.value === String(data.get('expired') ?? ''))
  if (expired?.expired !== undefined) filter.expired = expired.expired
  if (data.get('needsReview') !== null) filter.needsReview = true
  return filter
}

/** Adds the tier, expired and needs-review controls to the Browse form, before its button. */
export function addLifecycleControls(form: HTMLFormElement): void {
  const tier = h(
    'select',
    { name: 'tier', 'aria-label': 'Filter by tier' },
    h('option', { value: '', text: 'any tier' }),
    ...TIERS.map((t) => h('option', { value: t, text: t })),
  )
  const expired = h(
    'select',
    { name: 'expired', 'aria-label': 'Live or expired memories' },
    ...EXPIRED_CHOICES.map((c) => h('option', { value: c.value, text: c.label })),
  )
  const review = h(
    'label',
    { class: 'check' },
    h('input', { type: 'checkbox', name: 'needsReview' }),
    'needs review',
  )
  form.querySelector('button[type="submit"]')!.before(tier, expired, review)
}

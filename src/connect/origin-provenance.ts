import { AccessDeniedError } from '../core/errors.ts'
import type { PoisonPolicy, TrustLevel } from '../core/types.ts'

/**
 * The trust the host gives every memory another origin writes. A site is a third party: the
 * reader (and the prompt, which tells the model to prefer trusted notes) must not take its
 * words for the user's.
 */
export const ORIGIN_TRUST: TrustLevel = 'untrusted'

/**
 * The poison policy of an origin's writes when it names none: its instruction-shaped text is
 * refused, whatever default the owner chose for their own writes. It may ask for `'flag'`
 * (stored, marked for the reader), never for `'off'`.
 */
export const ORIGIN_POISON: PoisonPolicy = 'reject'

/** The write fields whose value the host decides for another origin. */
interface Provenance {
  source?: string
  trust?: TrustLevel
  poison?: PoisonPolicy
}

/**
 * A write's options (a memory, an item, a patch, a page) with the host's provenance: `source`
 * is the origin itself, `trust` {@link ORIGIN_TRUST}, `poison` the origin's `'reject'` or
 * `'flag'` ({@link ORIGIN_POISON} when absent). Asking for more (another source, a higher trust,
 * `poison: 'off'`) is refused with `AccessDeniedError`, so nothing is written.
 *
 * @example
 * hostProvenance('https://site.test', { tags: ['a'] }, 'options')
 * // => { tags: ['a'], source: 'https://site.test', trust: 'untrusted', poison: 'reject' }
 * hostProvenance('https://site.test', { trust: 'trusted' }, 'options')
 * // => throws AccessDeniedError: https://site.test cannot set options.trust to "trusted" (…)
 */
export function hostProvenance<T extends Provenance>(origin: string, options: T, field: string): T {
  const refuse = (name: keyof Provenance, why: string): never => {
    throw new AccessDeniedError(
      origin,
      `${origin} cannot set ${field}.${name} to ${JSON.stringify(options[name])}: ${why}`,
    )
  }
  if (options.source !== undefined && options.source !== origin) {
    refuse('source', `the host records ${JSON.stringify(origin)} as the source of its memories`)
  }
  if (options.trust !== undefined && options.trust !== ORIGIN_TRUST) {
    refuse('trust', `the host gives other origins' memories trust ${JSON.stringify(ORIGIN_TRUST)}`)
  }
  if (options.poison !== undefined && options.poison !== 'reject' && options.poison !== 'flag') {
    refuse('poison', `other origins' writes are screened ('reject' or 'flag')`)
  }
  return {
    ...options,
    source: origin,
    trust: ORIGIN_TRUST,
    poison: options.poison ?? ORIGIN_POISON,
  }
}

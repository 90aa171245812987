import { InvalidInputError } from '../../core/errors.ts'
import { DEFAULT_NAMESPACE, DEFAULT_SOURCE, type LimitOptions } from '../../core/options.ts'
import { DEFAULT_PAGE_CHUNKING, htmlToText, validatePage } from '../../core/page/index.ts'
import type { PoisonPolicy, RememberPageInput, TrustLevel } from '../../core/types.ts'
import {
  badOption,
  expectOptions,
  expectString,
  oneOf,
  optionNames,
  validateHappened,
  validateId,
  validateName,
  validateTags,
  validateTime,
} from '../../core/validate.ts'
import { POISON_POLICIES, TRUST_LEVELS } from '../../core/vocabulary.ts'
import { defaultTrust } from '../write/prepare.ts'

/** A checked {@link RememberPageInput}: the page normalised, every field resolved. */
export interface CheckedPage {
  title: string
  /** The page as stored and chunked (`validatePage`). */
  page: string
  source: string
  tags: string[]
  namespace: string
  pageId?: string
  trust: TrustLevel
  poison: PoisonPolicy
  happenedAt?: number
  happenedUntil?: number
  /** When the write returns: {@link RememberPageInput.wait}. */
  wait: 'stored' | 'vectors'
}

const INPUT_NAMES = optionNames<RememberPageInput>()([
  'title',
  'text',
  'html',
  'source',
  'tags',
  'namespace',
  'pageId',
  'trust',
  'poison',
  'wait',
  'happenedAt',
  'happenedUntil',
])

const WAITS = ['stored', 'vectors'] as const

/** HTML is mostly markup: it may be this many times the page limit before conversion. */
const HTML_OVERHEAD = 4

/**
 * Checks a page write whole before anything is chunked or written. HTML becomes text first
 * (`htmlToText`), bounded so a huge document is refused before the conversion.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, unknown name, both or neither of
 *   `text` and `html`), `TEXT_TOO_LONG` (over `maxPageBytes`), `EMPTY_TEXT`, the character
 *   codes, naming the field.
 */
export function checkPageInput(
  input: unknown,
  limits: LimitOptions,
  maxPageBytes = DEFAULT_PAGE_CHUNKING.maxPageBytes,
): CheckedPage {
  const o = expectOptions(input, 'input', INPUT_NAMES, '', true) as Partial<RememberPageInput>
  if ((o.text === undefined) === (o.html === undefined)) {
    const got = o.text === undefined ? 'neither' : 'both'
    throw badOption('text', 'exactly one of text and html', got)
  }
  const source = validateName(o.source ?? DEFAULT_SOURCE, 'source')
  const checked: CheckedPage = {
    title: validateName(o.title, 'title'),
    page: validatePage(
      o.html === undefined ? o.text : fromHtml(o.html, maxPageBytes),
      o.html === undefined ? 'text' : 'html',
      maxPageBytes,
    ),
    source,
    tags: validateTags(o.tags, 'tags', limits.maxTags, limits.maxTagLength),
    namespace: validateName(o.namespace ?? DEFAULT_NAMESPACE, 'namespace'),
    trust: oneOf(o.trust ?? defaultTrust(source), TRUST_LEVELS, 'trust'),
    poison: oneOf(o.poison ?? 'reject', POISON_POLICIES, 'poison'),
    wait: oneOf(o.wait ?? 'stored', WAITS, 'wait'),
  }
  if (o.pageId !== undefined) checked.pageId = validateId(o.pageId, 'pageId')
  if (o.happenedAt !== undefined) checked.happenedAt = validateTime(o.happenedAt, 'happenedAt')
  if (o.happenedUntil !== undefined) {
    checked.happenedUntil = validateTime(o.happenedUntil, 'happenedUntil')
  }
  validateHappened(checked.happenedAt, checked.happenedUntil)
  return checked
}

function fromHtml(value: unknown, maxPageBytes: number): string {
  const html = expectString(value, 'html')
  if (html.length > HTML_OVERHEAD * maxPageBytes) {
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      'html',
      `expected at most ${HTML_OVERHEAD * maxPageBytes} characters of HTML, got ${html.length}`,
    )
  }
  return htmlToText(html)
}

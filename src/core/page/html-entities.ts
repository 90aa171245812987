/**
 * HTML character references: numeric ones, and the named ones pages actually use (the full
 * table has 2,231 names; one unknown to this list stays as written).
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  shy: '\u00AD',
  zwnj: '\u200C',
  zwj: '\u200D',
  lrm: '\u200E',
  rlm: '\u200F',
  ndash: '–',
  mdash: '—',
  minus: '−',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  lsaquo: '‹',
  rsaquo: '›',
  bull: '•',
  middot: '·',
  prime: '′',
  Prime: '″',
  dagger: '†',
  Dagger: '‡',
  sect: '§',
  para: '¶',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  sup1: '¹',
  sup2: '²',
  sup3: '³',
  micro: 'µ',
  cent: '¢',
  pound: '£',
  yen: '¥',
  euro: '€',
  curren: '¤',
  iexcl: '¡',
  iquest: '¿',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  harr: '↔',
  lArr: '⇐',
  rArr: '⇒',
  hArr: '⇔',
  le: '≤',
  ge: '≥',
  ne: '≠',
  asymp: '≈',
  equiv: '≡',
  infin: '∞',
  sum: '∑',
  prod: '∏',
  radic: '√',
  forall: '∀',
  exist: '∃',
  isin: '∈',
  and: '∧',
  or: '∨',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  lambda: 'λ',
  mu: 'μ',
  pi: 'π',
  sigma: 'σ',
  tau: 'τ',
  phi: 'φ',
  omega: 'ω',
  Delta: 'Δ',
  Sigma: 'Σ',
  Omega: 'Ω',
  check: '✓',
  star: '☆',
  hearts: '♥',
  szlig: 'ß',
  aacute: 'á',
  eacute: 'é',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  agrave: 'à',
  egrave: 'è',
  ograve: 'ò',
  acirc: 'â',
  ecirc: 'ê',
  ocirc: 'ô',
  auml: 'ä',
  euml: 'ë',
  iuml: 'ï',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  Eacute: 'É',
  ntilde: 'ñ',
  Ntilde: 'Ñ',
  ccedil: 'ç',
  Ccedil: 'Ç',
  aring: 'å',
  Aring: 'Å',
  aelig: 'æ',
  oslash: 'ø',
  Oslash: 'Ø',
}

// Named references HTML still reads without the closing semicolon.
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg'])

// Numeric references in 0x80..0x9F mean the Windows-1252 character, as browsers read them.
const WINDOWS_1252: Readonly<Record<number, number>> = {
  128: 0x20ac,
  130: 0x201a,
  131: 0x0192,
  132: 0x201e,
  133: 0x2026,
  134: 0x2020,
  135: 0x2021,
  136: 0x02c6,
  137: 0x2030,
  138: 0x0160,
  139: 0x2039,
  140: 0x0152,
  142: 0x017d,
  145: 0x2018,
  146: 0x2019,
  147: 0x201c,
  148: 0x201d,
  149: 0x2022,
  150: 0x2013,
  151: 0x2014,
  152: 0x02dc,
  153: 0x2122,
  154: 0x0161,
  155: 0x203a,
  156: 0x0153,
  158: 0x017e,
  159: 0x0178,
}

const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/g

/**
 * Decodes character references. A reference to nothing a text may hold (NUL, a surrogate, a
 * value past U+10FFFF) becomes U+FFFD; one to another control character is dropped, so an
 * entity cannot smuggle what a raw control character could not.
 *
 * @example
 * decodeEntities('Fish &amp; chips &#8212; &#x1F41F; &euro;5 &notanentity;')
 * // => 'Fish & chips — 🐟 €5 &notanentity;'
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (whole, decimal, hex, name, semicolon) => {
    if (name !== undefined) {
      const value = Object.hasOwn(NAMED, name) ? NAMED[name] : undefined
      if (value === undefined || (semicolon === '' && !LEGACY.has(name))) return whole
      return value
    }
    return fromCodePoint(decimal !== undefined ? Number(decimal) : Number.parseInt(hex, 16))
  })
}

function fromCodePoint(code: number): string {
  const mapped = WINDOWS_1252[code] ?? code
  if (mapped === 0 || mapped > 0x10ffff || (mapped >= 0xd800 && mapped <= 0xdfff)) return '\uFFFD'
  if (mapped === 0x09 || mapped === 0x0a || mapped === 0x0d) return String.fromCodePoint(mapped)
  if (mapped < 0x20 || (mapped >= 0x7f && mapped <= 0x9f)) return ''
  return String.fromCodePoint(mapped)
}

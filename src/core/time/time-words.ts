/** The English words the time parser knows, as lookup tables. */

/** Month names and abbreviations → 0-based month. */
export const MONTHS: ReadonlyMap<string, number> = new Map([
  ['january', 0],
  ['jan', 0],
  ['february', 1],
  ['feb', 1],
  ['march', 2],
  ['mar', 2],
  ['april', 3],
  ['apr', 3],
  ['may', 4],
  ['june', 5],
  ['jun', 5],
  ['july', 6],
  ['jul', 6],
  ['august', 7],
  ['aug', 7],
  ['september', 8],
  ['sept', 8],
  ['sep', 8],
  ['october', 9],
  ['oct', 9],
  ['november', 10],
  ['nov', 10],
  ['december', 11],
  ['dec', 11],
])

/**
 * Month names that stand alone as a time word. The others are also an ordinary word or a name
 * ("may I", "march on", "June said", "an august body", "mar the day") and count only with a
 * year, a day number, a time preposition or a modifier beside them.
 */
export const STANDALONE_MONTHS: ReadonlySet<string> = new Set([
  'january',
  'february',
  'april',
  'july',
  'september',
  'october',
  'november',
  'december',
])

/** Weekday names → 0 = Monday. */
export const WEEKDAYS: ReadonlyMap<string, number> = new Map([
  ['monday', 0],
  ['mon', 0],
  ['tuesday', 1],
  ['tue', 1],
  ['tues', 1],
  ['wednesday', 2],
  ['wed', 2],
  ['thursday', 3],
  ['thu', 3],
  ['thur', 3],
  ['thurs', 3],
  ['friday', 4],
  ['fri', 4],
  ['saturday', 5],
  ['sat', 5],
  ['sunday', 6],
  ['sun', 6],
])

/** Weekday words that stand alone; the short forms need "on", "last", "this" or "next". */
export const STANDALONE_WEEKDAYS: ReadonlySet<string> = new Set([
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
])

/**
 * Seasons → first month (meteorological, northern hemisphere): spring March–May, summer
 * June–August, autumn September–November, winter December–February.
 */
export const SEASONS: ReadonlyMap<string, number> = new Map([
  ['spring', 2],
  ['summer', 5],
  ['autumn', 8],
  ['fall', 8],
  ['winter', 11],
])

/** Spelled numbers for "two weeks ago", "the past three days". */
export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ['a', 1],
  ['an', 1],
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
  ['fifteen', 15],
  ['twenty', 20],
  ['thirty', 30],
  ['few', 3],
  ['several', 3],
])

export type StepUnit = 'day' | 'week' | 'month' | 'year'

/** Unit words → the unit and how many of it one word is ("fortnight" is two weeks). */
export const UNIT_WORDS: ReadonlyMap<string, [StepUnit, number]> = new Map([
  ['day', ['day', 1]],
  ['days', ['day', 1]],
  ['week', ['week', 1]],
  ['weeks', ['week', 1]],
  ['fortnight', ['week', 2]],
  ['fortnights', ['week', 2]],
  ['month', ['month', 1]],
  ['months', ['month', 1]],
  ['year', ['year', 1]],
  ['years', ['year', 1]],
  ['decade', ['year', 10]],
  ['decades', ['year', 10]],
])

/** Prepositions that mark the next words as a time ("in May", "during the summer"). */
export const TIME_PREPOSITIONS: ReadonlySet<string> = new Set([
  'in',
  'on',
  'at',
  'during',
  'of',
  'from',
  'throughout',
  'over',
  'around',
])

/** "last", "this", "next" and their synonyms → −1, 0, +1. */
export const DEIXIS: ReadonlyMap<string, -1 | 0 | 1> = new Map([
  ['last', -1],
  ['previous', -1],
  ['past', -1],
  ['this', 0],
  ['current', 0],
  ['next', 1],
  ['coming', 1],
])

/** Words after a bare number that make it a count, not a year ("2019 km", "2019 people"). */
export const COUNT_WORDS: ReadonlySet<string> = new Set([
  'people',
  'children',
  'men',
  'women',
  'km',
  'kg',
  'mb',
  'gb',
  'kb',
  'ms',
  'px',
  'mm',
  'cm',
  'ml',
  'lb',
  'lbs',
  'usd',
  'eur',
  'times',
  'x',
  'of',
  'out',
  'per',
  'more',
  'less',
  'other',
])

/** Words ending in "s" that follow a year without being a plural count ("2019 was"). */
export const NOT_PLURAL: ReadonlySet<string> = new Set([
  'was',
  'has',
  'is',
  'as',
  'does',
  'goes',
  'says',
  'sees',
  'gives',
  'brings',
  'makes',
  'marks',
  'looks',
  'means',
  'begins',
  'ends',
  'starts',
  'its',
  'his',
  'this',
  'us',
  'plus',
  'vs',
  'versus',
  'changes',
  'gets',
])

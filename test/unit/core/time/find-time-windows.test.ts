import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors'
import { findTimeWindows, formatWindow } from '../../../../src/core/time'
import { TEST_SEED } from '../../../helpers/random'

// Thursday 14 March 2024, 15:00 UTC: the clock of every row below.
const NOW = Date.UTC(2024, 2, 14, 15)

/** Each row: the query, then the windows' words, unit and first..last day. */
const PHRASES: [string, string[]][] = [
  ['what did I eat today', ['today day 2024-03-14..2024-03-14']],
  ['yesterday', ['yesterday day 2024-03-13..2024-03-13']],
  ['yesterday morning at the gym', ['yesterday morning day 2024-03-13..2024-03-13']],
  ['last night', ['last night day 2024-03-13..2024-03-13']],
  ['the day before yesterday', ['the day before yesterday day 2024-03-12..2024-03-12']],
  ['3 days ago', ['3 days ago day 2024-03-11..2024-03-11']],
  ['a week ago', ['a week ago week 2024-03-04..2024-03-10']],
  ['two weeks ago', ['two weeks ago week 2024-02-26..2024-03-03']],
  ['a couple of months ago', ['a couple of months ago month 2024-01-01..2024-01-31']],
  ['2 years ago', ['2 years ago year 2022-01-01..2022-12-31']],
  ['what did we decide last week?', ['last week week 2024-03-04..2024-03-10']],
  ['this week', ['this week week 2024-03-11..2024-03-17']],
  ['next week', ['next week week 2024-03-18..2024-03-24']],
  ['last month', ['last month month 2024-02-01..2024-02-29']],
  ['this year', ['this year year 2024-01-01..2024-12-31']],
  ["last year's trip", ["last year's year 2023-01-01..2023-12-31"]],
  ['the past week', ['the past week range 2024-03-08..2024-03-14']],
  ['in the last 3 days', ['in the last 3 days range 2024-03-12..2024-03-14']],
  ['last weekend', ['last weekend range 2024-03-09..2024-03-10']],
  ['this weekend', ['this weekend range 2024-03-16..2024-03-17']],
  ['over the weekend', ['over the weekend range 2024-03-09..2024-03-10']],
  ['this spring', ['this spring season 2024-03-01..2024-05-31']],
  ['last summer', ['last summer season 2023-06-01..2023-08-31']],
  ['last fall', ['last fall season 2023-09-01..2023-11-30']],
  ['this winter', ['this winter season 2023-12-01..2024-02-29']],
  ['in the summer', ['in the summer season 2023-06-01..2023-08-31']],
  ['the summer of 2022', ['the summer of 2022 season 2022-06-01..2022-08-31']],
  ['winter 2019', ['winter 2019 season 2019-12-01..2020-02-29']],
  ['on Monday', ['on Monday day 2024-03-11..2024-03-11']],
  ['Thursday', ['Thursday day 2024-03-14..2024-03-14']],
  ['last Friday', ['last Friday day 2024-03-08..2024-03-08']],
  ['last Thursday', ['last Thursday day 2024-03-07..2024-03-07']],
  ['this Friday', ['this Friday day 2024-03-15..2024-03-15']],
  ['next Monday', ['next Monday day 2024-03-18..2024-03-18']],
  ['on Tue', ['on Tue day 2024-03-12..2024-03-12']],
  ['in May', ['in May month 2023-05-01..2023-05-31']],
  ['in March', ['in March month 2024-03-01..2024-03-31']],
  ['during April', ['during April month 2023-04-01..2023-04-30']],
  ['May 2023', ['May 2023 month 2023-05-01..2023-05-31']],
  ['in May 2023', ['in May 2023 month 2023-05-01..2023-05-31']],
  ['September of 2021', ['September of 2021 month 2021-09-01..2021-09-30']],
  ['next May', ['next May month 2024-05-01..2024-05-31']],
  ['last May', ['last May month 2023-05-01..2023-05-31']],
  ['December', ['December month 2023-12-01..2023-12-31']],
  ['on 8 June', ['on 8 June day 2023-06-08..2023-06-08']],
  ['on 8 March', ['on 8 March day 2024-03-08..2024-03-08']],
  ['June 8th, 2023', ['June 8th, 2023 day 2023-06-08..2023-06-08']],
  ['the 8th of June 2023', ['the 8th of June 2023 day 2023-06-08..2023-06-08']],
  ['May 7', ['May 7 day 2023-05-07..2023-05-07']],
  ['2023-05-08', ['2023-05-08 day 2023-05-08..2023-05-08']],
  ['2023/05/08', ['2023/05/08 day 2023-05-08..2023-05-08']],
  ['2023-05', ['2023-05 month 2023-05-01..2023-05-31']],
  ['in 2019', ['in 2019 year 2019-01-01..2019-12-31']],
  ['2019 was a good year', ['2019 year 2019-01-01..2019-12-31']],
  ['the 1990s', ['the 1990s range 1990-01-01..1999-12-31']],
  ["the '90s", ['90s range 1990-01-01..1999-12-31']],
  ['early May', ['early May range 2023-05-01..2023-05-10']],
  ['mid-May 2023', ['mid-May 2023 range 2023-05-11..2023-05-20']],
  ['late May', ['late May range 2023-05-21..2023-05-31']],
  ['the end of May 2023', ['the end of May 2023 range 2023-05-21..2023-05-31']],
  ['the beginning of June', ['the beginning of June range 2023-06-01..2023-06-10']],
  ['early 2023', ['early 2023 range 2023-01-01..2023-04-30']],
  ['late last year', ['late last year range 2023-09-01..2023-12-31']],
  ['between May and July 2023', ['between May and July 2023 range 2023-05-01..2023-07-31']],
  ['between November and February', ['between November and February range 2023-11-01..2024-02-29']],
  ['from 8 June 2023 to 12 July', ['from 8 June 2023 to 12 July range 2023-06-08..2023-07-12']],
  ['May-July 2023', ['May-July 2023 range 2023-05-01..2023-07-31']],
  ['2019–2021', ['2019–2021 range 2019-01-01..2021-12-31']],
  ['since March', ['since March range 2024-03-01..2024-03-14']],
  ['since last week', ['since last week range 2024-03-04..2024-03-14']],
  ['since 2020', ['since 2020 range 2020-01-01..2024-03-14']],
  ['the week before 9 June 2023', ['the week before 9 June 2023 range 2023-06-02..2023-06-08']],
  [
    'the weekend before 17 July 2023',
    ['the weekend before 17 July 2023 range 2023-07-15..2023-07-16'],
  ],
  ['the Friday before 15 July 2023', ['the Friday before 15 July 2023 day 2023-07-14..2023-07-14']],
  ['3 days after May 3', ['3 days after May 3 day 2023-05-06..2023-05-06']],
  [
    'two weeks before August 11, 2023',
    ['two weeks before August 11, 2023 range 2023-07-25..2023-07-31'],
  ],
  ['the day after last Friday', ['the day after last Friday day 2024-03-09..2024-03-09']],
  [
    'did I call mum yesterday or on Monday?',
    ['yesterday day 2024-03-13..2024-03-13', 'on Monday day 2024-03-11..2024-03-11'],
  ],
]

/** Queries with no time in them, many with a word a naive parser would take for one. */
const NEGATIVES = [
  'I may go to the party',
  'may I ask a question',
  'you may want to restart',
  'March forward, comrades',
  'they march on the capital',
  'June said she would call',
  'an august institution',
  'copy the 2019 files to the drive',
  'we sold 2019 items',
  'version 2019.5 of the tool',
  'it cost $2019',
  'growth of 2019%',
  'in my 30s I moved',
  'the meeting room on floor 12',
  'since you asked',
  'between you and me',
  'a week of rain',
  'the fall of Rome',
  'spring cleaning tips',
  'last but not least',
  'I have 3 cats',
  'the year of the dragon',
  'meet at 10:30',
  'sat on the mat',
  'the day before the exam',
  'two weeks before the launch',
]

const show = (query: string, now = NOW) =>
  findTimeWindows(query, now).map((w) => `${w.text} ${w.unit} ${formatWindow(w)}`)

describe('findTimeWindows', () => {
  it.each(PHRASES)('reads %j as its window', (query, expected) => {
    expect(show(query)).toEqual(expected)
  })

  it.each(NEGATIVES)('finds no time in %j', (query) => {
    expect(show(query)).toEqual([])
  })

  it('gives each window the offsets of its words in the query', () => {
    const query = 'notes from last week about the launch in May 2023'
    for (const w of findTimeWindows(query, NOW)) {
      expect(query.slice(w.span[0], w.span[1])).toBe(w.text)
    }
    expect(findTimeWindows(query, NOW).map((w) => w.text)).toEqual([
      'from last week',
      'in May 2023',
    ])
  })

  it('returns whole days: start at local midnight, end at the next one, exclusive', () => {
    const [w] = findTimeWindows('yesterday', NOW)
    expect(w).toMatchObject({ start: Date.UTC(2024, 2, 13), end: Date.UTC(2024, 2, 14) })
  })

  it('resolves in the calendar shifted by offsetMinutes', () => {
    // 23:30 UTC on the 14th is already the 15th in UTC+2, so "yesterday" is the 14th there.
    const late = Date.UTC(2024, 2, 14, 23, 30)
    const [w] = findTimeWindows('yesterday', late, { offsetMinutes: 120 })
    expect(w!.start).toBe(Date.UTC(2024, 2, 14) - 120 * 60_000)
    expect(formatWindow(w!, { offsetMinutes: 120 })).toBe('2024-03-14..2024-03-14')
    const [utc] = findTimeWindows('yesterday', late)
    expect(formatWindow(utc!)).toBe('2024-03-13..2024-03-13')
  })

  it('takes a date without a year as the latest one begun by now', () => {
    const jan = Date.UTC(2024, 0, 10)
    expect(show('in May', jan)).toEqual(['in May month 2023-05-01..2023-05-31'])
    expect(show('on 10 January', jan)).toEqual(['on 10 January day 2024-01-10..2024-01-10'])
    expect(show('on 11 January', jan)).toEqual(['on 11 January day 2023-01-11..2023-01-11'])
  })

  it('rejects a non-string query, a non-finite clock and a bad offset with BAD_OPTION', () => {
    const bad = [
      () => findTimeWindows(42 as unknown as string, NOW),
      () => findTimeWindows('today', Number.NaN),
      () => findTimeWindows('today', NOW, { offsetMinutes: 1.5 }),
      () => findTimeWindows('today', NOW, { offsetMinutes: 900 }),
    ]
    for (const call of bad) {
      expect(call).toThrow(InvalidInputError)
      expect(call).toThrow(expect.objectContaining({ code: 'BAD_OPTION' }))
    }
  })

  it('keeps its rules on any clock: yesterday before today, last week the Monday-start week before this one (seeded)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1950, 0, 1), max: Date.UTC(2090, 0, 1) }),
        fc.integer({ min: -720, max: 840 }),
        (now, offsetMinutes) => {
          const one = (q: string) => findTimeWindows(q, now, { offsetMinutes })[0]!
          const today = one('today')
          expect(today.start).toBeLessThanOrEqual(now)
          expect(today.end).toBeGreaterThan(now)
          expect(one('yesterday').end).toBe(today.start)
          expect(one('3 days ago').start).toBe(today.start - 3 * 86_400_000)
          const thisWeek = one('this week')
          const lastWeek = one('last week')
          expect(lastWeek.end).toBe(thisWeek.start)
          expect(thisWeek.end - thisWeek.start).toBe(7 * 86_400_000)
          expect(new Date(thisWeek.start + offsetMinutes * 60_000).getUTCDay()).toBe(1)
          expect(one('last month').end).toBe(one('this month').start)
          expect(one('last year').end).toBe(one('this year').start)
          const since = one('since last month')
          expect([since.start, since.end]).toEqual([one('last month').start, today.end])
        },
      ),
      { seed: TEST_SEED, numRuns: 300 },
    )
  })

  it('never throws and returns ordered, well-formed windows for any text (seeded)', () => {
    const words = ['in', 'May', 'may', 'last', 'week', '2019', '8', 'June', 'ago', 'two', 'since']
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words, 'x', ',', '-'), { maxLength: 12 }),
        (parts) => {
          const query = parts.join(' ')
          let previous = 0
          for (const w of findTimeWindows(query, NOW)) {
            expect(w.end).toBeGreaterThan(w.start)
            expect(w.span[0]).toBeGreaterThanOrEqual(previous)
            expect(query.slice(...w.span)).toBe(w.text)
            previous = w.span[1]
          }
        },
      ),
      { seed: TEST_SEED, numRuns: 500 },
    )
  })
})

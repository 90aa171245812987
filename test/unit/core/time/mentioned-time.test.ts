import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors'
import { asksWhen, resolveMentionedTime } from '../../../../src/core/time'

const MAY_8 = Date.UTC(2023, 4, 8, 13, 56)

describe('resolveMentionedTime', () => {
  it('reads a relative word against the date the text was written', () => {
    expect(resolveMentionedTime('I went to a support group yesterday', MAY_8)).toEqual({
      happenedAt: Date.UTC(2023, 4, 7),
      text: 'yesterday',
    })
  })

  it('gives a window longer than a day as an interval ending at its last ms', () => {
    expect(resolveMentionedTime('We went camping last week, it was great', MAY_8)).toEqual({
      happenedAt: Date.UTC(2023, 4, 1),
      happenedUntil: Date.UTC(2023, 4, 8) - 1,
      text: 'last week',
    })
  })

  it('takes the first time expression when the text names several', () => {
    const got = resolveMentionedTime('Painted this in 2022, framed it last month', MAY_8)
    expect(got?.text).toBe('in 2022')
    expect(got?.happenedAt).toBe(Date.UTC(2022, 0, 1))
  })

  it('returns null for a text that names no time, a modal "may" included', () => {
    expect(resolveMentionedTime('You may like the new pottery class', MAY_8)).toBeNull()
  })

  it('rejects a text that is not a string with BAD_OPTION', () => {
    expect(() => resolveMentionedTime(7 as unknown as string, MAY_8)).toThrow(InvalidInputError)
  })
})

describe('asksWhen', () => {
  it.each([
    ['When did Caroline go to the LGBTQ support group?', true],
    ['what year did we move?', true],
    ['How long ago was her 18th birthday?', true],
    ['which month is the conference', true],
    ['What did Melanie paint?', false],
    ['Whenever possible, use tabs', false],
  ])('reads %j as asking for a time: %s', (query, expected) => {
    expect(asksWhen(query)).toBe(expected)
  })
})

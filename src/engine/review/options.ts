import { DEFAULT_JUDGE_TIMEOUT_MS } from '../../core/options.ts'
import type { JudgeHook } from '../../core/types.ts'
import { expectFunction, expectOptions, integerIn } from '../../core/validate.ts'

export interface CheckedReview {
  judge?: JudgeHook
  judgeTimeoutMs: number
}

/** Checks `review()` options. @throws InvalidInputError `BAD_OPTION`. */
export function checkReviewOptions(options: unknown): CheckedReview {
  const o = expectOptions(options, 'options', ['judge', 'judgeTimeoutMs'], '')
  const checked: CheckedReview = {
    judgeTimeoutMs:
      o.judgeTimeoutMs === undefined
        ? DEFAULT_JUDGE_TIMEOUT_MS
        : integerIn(o.judgeTimeoutMs, 'judgeTimeoutMs', 1, 600_000),
  }
  if (o.judge !== undefined)
    checked.judge = expectFunction<JudgeHook>(o.judge, 'judge', 'a function (cases) => verdicts')
  return checked
}

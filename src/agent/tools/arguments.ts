/** Checks the tool schemas cannot express in the strict subset (ranges, "at least one of"). */
import { InvalidInputError, MemoryNotFoundError } from '../../core/errors.ts'
import type { Memory, TrustLevel } from '../../core/types.ts'
import { trustRank } from '../../core/vocabulary.ts'
import type { JsonSchema } from '../json-schema.ts'
import type { ToolSettings } from '../tool-settings.ts'
import type { ToolContext } from '../tool-spec.ts'

/** `k` from the model: `null` means the host's default; otherwise an integer 1..maxK. */
export function checkK(k: unknown, settings: ToolSettings): number {
  if (k === null) return settings.k
  if (!Number.isInteger(k) || (k as number) < 1 || (k as number) > settings.maxK) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'k',
      `expected an integer 1..${settings.maxK} or null, got ${String(k)}`,
    )
  }
  return k as number
}

/** The `id` argument of the tools that take a memory found by a search. */
export const MEMORY_ID: JsonSchema = {
  type: 'string',
  description: 'The id of the memory, from memory_search.',
}

/**
 * The memory `id` names, if it lives in the tools' namespace. One in another namespace reads
 * as missing, so a model cannot learn of it, change it or delete it.
 */
export async function ownMemory({ memory, settings }: ToolContext, id: string): Promise<Memory> {
  const found = await memory.get(id)
  if (!found || found.namespace !== settings.namespace) throw new MemoryNotFoundError(id)
  return found
}

/** The less trusted of two levels. */
export function lowerTrust(a: TrustLevel, b: TrustLevel): TrustLevel {
  return trustRank(a) >= trustRank(b) ? a : b
}

// A date the model writes: YYYY-MM-DD, or a date-time in ISO 8601 (a missing zone is UTC).
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/**
 * `since` and `until` from the model: each an ISO date (`'2024-03-01'`) or date-time, or `null`
 * for no bound; `since` before `until`. Returned as given, for `recall`/`timeline` to read.
 */
export function checkDates(since: unknown, until: unknown): { since?: string; until?: string } {
  const out: { since?: string; until?: string } = {}
  for (const [field, value] of [
    ['since', since],
    ['until', until],
  ] as const) {
    if (value === null) continue
    if (typeof value !== 'string' || !ISO_DATE.test(value) || !Number.isFinite(toMs(value))) {
      throw new InvalidInputError(
        'BAD_OPTION',
        field,
        `expected an ISO date such as 2024-03-01 (or a date-time) or null, got ${JSON.stringify(value)}`,
      )
    }
    out[field] = value
  }
  if (out.since !== undefined && out.until !== undefined && toMs(out.since) >= toMs(out.until)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'until',
      `expected a date after since (${out.since}), got ${JSON.stringify(out.until)}`,
    )
  }
  return out
}

/** Epoch ms of an ISO date or date-time; no zone means UTC, as `recall` reads it. */
function toMs(value: string): number {
  const utc = /[Zz]|[+-]\d{2}:?\d{2}$/.test(value) || !value.includes(':') ? value : `${value}Z`
  return Date.parse(utc.replace(' ', 'T'))
}

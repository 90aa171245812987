import { isExpired } from '../../core/lifecycle.ts'
import type { LifecycleOptions } from '../../core/options.ts'
import type { Memory } from '../../core/types.ts'

/**
 * The lifecycle's part of a recall's scope at time `now`: a memory past its TTL or `expiresAt`
 * is left out unless `includeExpired`. Read from the catalogue, whose rows carry the latest
 * `lastRecalledAt`, so a memory in use never drops out.
 */
export function lifecycleFilter(
  catalogue: ReadonlyMap<string, Memory>,
  o: { includeExpired?: boolean },
  now: number,
  lifecycle: LifecycleOptions,
): (id: string) => boolean {
  if (o.includeExpired) return () => true
  return (id) => {
    const m = catalogue.get(id)
    return m !== undefined && !isExpired(m, now, lifecycle)
  }
}

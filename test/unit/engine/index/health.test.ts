import { describe, expect, it } from 'vitest'
import { StorageError } from '../../../../src/core/errors.ts'
import { INDEX_RETRY_MS } from '../../../../src/core/options.ts'
import { IndexHealth } from '../../../../src/engine/index/health.ts'

describe('IndexHealth', () => {
  it('is fine until a failure, and then due for a retry only once INDEX_RETRY_MS has passed', () => {
    const health = new IndexHealth()
    expect(health.failed).toBe(false)
    expect(health.retryDue(0)).toBe(false)
    const raw = new TypeError("Cannot read properties of null (reading 'join')")
    health.fail(raw, new StorageError(raw.message), 1000)
    expect(health.failed).toBe(true)
    expect(health.retryDue(1000 + INDEX_RETRY_MS - 1)).toBe(false)
    expect(health.retryDue(1000 + INDEX_RETRY_MS)).toBe(true)
  })

  it('keeps when it first failed across retries, and counts them', () => {
    const health = new IndexHealth()
    health.fail(new Error('read failed'), new StorageError('read failed'), 1000)
    health.fail('not an error', new StorageError('still failing'), 5000)
    expect(health.failure).toEqual({
      state: 'failed',
      error: { name: 'StorageError', code: 'STORAGE', message: 'still failing' },
      since: 1000,
      lastTriedAt: 5000,
      attempts: 2,
    })
    health.recovered()
    expect(health.failure).toBeUndefined()
    expect(health.failed).toBe(false)
  })

  it('hands out a copy, so a caller cannot change the record', () => {
    const health = new IndexHealth()
    health.fail(new Error('x'), new StorageError('x'), 1)
    health.failure!.attempts = 99
    expect(health.failure?.attempts).toBe(1)
  })
})

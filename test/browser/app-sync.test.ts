/**
 * The Sync card against the local try-out server (issue 27): without `--cors` for the app's
 * origin the card says the server refuses this origin and how to allow it; with nothing at the
 * address it says so; with `--cors` and the server user's credentials the sync runs.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { BROWSER_TESTS, openApp, ROOT, screenshot, uniqueMemory, useRig } from './harness.ts'

const rig = useRig()

const servers: { child: ChildProcess; dir: string }[] = []
afterAll(() => {
  for (const { child, dir } of servers) {
    child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
})

/** `scripts/sync/couch-server.ts` on a free port, with these arguments; its base URL. */
async function couchServer(...args: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-app-couch-'))
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts/sync/couch-server.ts'), '--dir', dir, ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  servers.push({ child, dir })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const ready = /ready (\d+)/.exec(out)
      if (ready) resolve(Number(ready[1]))
    })
    child.once('exit', (code) => reject(new Error(`couch server exited (${code})`)))
  })
  return `http://127.0.0.1:${port}`
}

async function startInCard(page: Page, url: string): Promise<void> {
  await page.fill('#sync-url', url)
  await page.fill('#sync-username', 'alice')
  await page.fill('#sync-password', 'server secret')
  await page.fill('#sync-passphrase', 'correct horse battery staple')
  await page.click('#sync-start')
}

describe.skipIf(!BROWSER_TESTS)('the Sync card', () => {
  it('says the local server refuses the app’s origin and how to allow it', async () => {
    const server = await couchServer()
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('sync-cors'), model: 'ngram' }))
    await startInCard(page, `${server}/my-memory`)
    await page.waitForSelector('#sync-hint[data-reach="cors"]')
    const origin = new URL(rig().server.url).origin
    const hint = (await page.textContent('#sync-hint')) ?? ''
    expect(hint).toContain(`does not allow this page’s origin, ${origin} (CORS)`)
    expect(hint).toContain(`[cors] origins = ${origin}`)
    expect(hint).toContain(`--cors ${origin}`)
    expect(await page.inputValue('#sync-password')).toBe('')
    await screenshot(page, 'sync-cors')
  })

  it('says nothing answers at an address where no server runs', async () => {
    const server = await couchServer()
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('sync-none'), model: 'ngram' }))
    // A port that was just free: the server there is stopped before the card asks it.
    const child = servers[servers.length - 1]!.child
    await new Promise((done) => {
      child.once('exit', done)
      child.kill('SIGTERM')
    })
    await startInCard(page, `${server}/my-memory`)
    await page.waitForSelector('#sync-hint[data-reach="unreachable"]')
    expect(await page.textContent('#sync-hint')).toMatch(/^Nothing answers at 127\.0\.0\.1:\d+/)
  })

  it('syncs with the local server once it allows the app’s origin, with the credentials given', async () => {
    const origin = new URL(rig().server.url).origin
    const server = await couchServer('--cors', origin)
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('sync-ok'), model: 'ngram' }))
    await startInCard(page, `${server}/my-memory`)
    await page.waitForSelector(
      '#sync-state[data-state="paused"], #sync-state[data-state="error"]',
      {
        timeout: 30_000,
      },
    )
    expect(await page.textContent('#sync-error')).toBe('')
    expect(await page.getAttribute('#sync-state', 'data-state')).toBe('paused')
    expect(await page.isVisible('#sync-hint')).toBe(false)
    const info = await fetch(`${server}/my-memory`).then(
      (r) => r.json() as Promise<{ doc_count: number }>,
    )
    expect(info.doc_count).toBeGreaterThan(0)
  })
})

/**
 * Debian's Chromium with a profile of its own (playwright-core's `launchPersistentContext`),
 * for what a throwaway context cannot do: load an unpacked extension, or keep Chrome's default
 * of allowing third-party storage (a fresh headless profile blocks it). `@sparticuz/chromium`
 * cannot load extensions, so these tests need /usr/bin/chromium: they skip without it, except
 * under CI, where a missing browser fails them.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'
import { CHROMIUM_ARGS } from '../../scripts/chromium.ts'

export const SYSTEM_CHROMIUM = '/usr/bin/chromium'

/** Run unless the browser is absent on a machine that is not CI. */
export const SYSTEM_CHROMIUM_TESTS = existsSync(SYSTEM_CHROMIUM) || Boolean(process.env.CI)

export interface PersistentOptions {
  /** An unpacked extension folder to load. */
  extension?: string
  /**
   * Profile setting "allow third-party cookies" (`profile.cookie_controls_mode: 0`), Chrome's
   * default for ordinary windows; with it, a cross-site iframe may reach its own storage.
   * @default false (what a fresh headless profile does: block)
   */
  allowThirdPartyStorage?: boolean
}

export interface PersistentChromium {
  context: BrowserContext
  /** Errors thrown in pages, for failing tests with a reason. */
  pageErrors: string[]
  close(): Promise<void>
}

/** Launches Debian's Chromium, new headless mode (which loads extensions), on a fresh profile. */
export async function launchPersistent(
  options: PersistentOptions = {},
): Promise<PersistentChromium> {
  if (!existsSync(SYSTEM_CHROMIUM)) {
    throw new Error(`${SYSTEM_CHROMIUM} is missing (CI is set): apt-get install -y chromium`)
  }
  const profile = await mkdtemp(join(tmpdir(), 'engram-chromium-'))
  if (options.allowThirdPartyStorage) {
    await mkdir(join(profile, 'Default'), { recursive: true })
    await writeFile(
      join(profile, 'Default', 'Preferences'),
      JSON.stringify({ profile: { cookie_controls_mode: 0 } }),
    )
  }
  const args = [...CHROMIUM_ARGS, '--headless=new']
  if (options.extension) {
    args.push(
      `--disable-extensions-except=${options.extension}`,
      `--load-extension=${options.extension}`,
    )
  }
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: SYSTEM_CHROMIUM,
    headless: true,
    args,
    viewport: { width: 1200, height: 800 },
  })
  const pageErrors: string[] = []
  context.on('weberror', (error) => pageErrors.push(String(error.error())))
  return {
    context,
    pageErrors,
    async close() {
      await context.close().catch(() => {})
      await rm(profile, { recursive: true, force: true })
    },
  }
}

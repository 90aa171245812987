/**
 * Finds a Chromium for the browser tests and screenshots: `CHROMIUM_PATH`, then a system
 * Chromium, then the one shipped inside the `@sparticuz/chromium` npm package (extracted to
 * /tmp on first use), so `npm install && npm test` needs no system packages.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/** Flags for headless runs as root on a small CI box; WebGPU gets SwiftShader's software adapter. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--enable-unsafe-webgpu',
]

export async function chromiumPath(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`)
    return fromEnv
  }
  const system = SYSTEM_PATHS.find((path) => existsSync(path))
  if (system) return system
  const { default: packaged } = await import('@sparticuz/chromium')
  return packaged.executablePath()
}

export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: await chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  })
}

/**
 * Renders the PNG icons the web app manifest and iOS need from `public/icon.svg`.
 * Run after changing the SVG: `npx tsx scripts/make-icons.ts`. The PNGs are committed.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'

const publicDir = join(import.meta.dirname, '..', 'public')

async function main(): Promise<void> {
  const svg = await readFile(join(publicDir, 'icon.svg'))
  for (const [name, size] of [
    ['icon-192.png', 192],
    ['icon-512.png', 512],
    ['apple-touch-icon.png', 180],
  ] as const) {
    await sharp(svg, { density: 300 }).resize(size, size).png().toFile(join(publicDir, name))
  }
  // Maskable: the artwork within the central 80% safe zone, on a full-bleed background.
  const inner = await sharp(svg, { density: 300 }).resize(384, 384).png().toBuffer()
  await sharp({ create: { width: 512, height: 512, channels: 4, background: '#4a48d0' } })
    .composite([{ input: inner, top: 64, left: 64 }])
    .png()
    .toFile(join(publicDir, 'icon-maskable-512.png'))
  console.log(
    'wrote public/icon-192.png, icon-512.png, apple-touch-icon.png, icon-maskable-512.png',
  )
}

await main()

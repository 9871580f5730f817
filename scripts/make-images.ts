// Regenerates the committed pictures in web/public/images: the home page slideshow (hero-N.webp),
// the listing placeholder and the 404 illustration. Run: npx tsx scripts/make-images.ts
import fs from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { drawHeroSvg, drawNotFoundSvg, drawPlaceholderSvg, HERO_SCENES } from '#server/demo/hero-art'

const outDir = path.resolve(import.meta.dirname, '../web/public/images')
// The slideshow loads on the first screen: each picture must stay small.
const HERO_BUDGET_BYTES = 60 * 1024

async function writeHero(index: number): Promise<void> {
  const scene = HERO_SCENES[index]
  if (!scene) return
  const svg = Buffer.from(drawHeroSvg(scene, index))
  let quality = 82
  let webp = await sharp(svg).webp({ quality, effort: 6 }).toBuffer()
  while (webp.length > HERO_BUDGET_BYTES && quality > 50) {
    quality -= 6
    webp = await sharp(svg).webp({ quality, effort: 6 }).toBuffer()
  }
  const file = path.join(outDir, `hero-${index + 1}.webp`)
  await fs.writeFile(file, webp)
  console.log(
    `${path.relative(process.cwd(), file)}  ${(webp.length / 1024).toFixed(1)} KB (quality ${quality})`,
  )
  // Half the width for phones (the slideshow's srcset): a phone's slot is under 800 device pixels wide.
  const small = await sharp(svg).resize({ width: 800 }).webp({ quality, effort: 6 }).toBuffer()
  const smallFile = path.join(outDir, `hero-${index + 1}-800.webp`)
  await fs.writeFile(smallFile, small)
  console.log(`${path.relative(process.cwd(), smallFile)}  ${(small.length / 1024).toFixed(1)} KB`)
}

async function writeSvg(name: string, svg: string): Promise<void> {
  const file = path.join(outDir, name)
  await fs.writeFile(file, `${svg}\n`)
  console.log(`${path.relative(process.cwd(), file)}  ${(svg.length / 1024).toFixed(1)} KB`)
}

await fs.mkdir(outDir, { recursive: true })
for (let i = 0; i < HERO_SCENES.length; i++) await writeHero(i)
await writeSvg('laptop-placeholder.svg', drawPlaceholderSvg())
await writeSvg('not-found.svg', drawNotFoundSvg())

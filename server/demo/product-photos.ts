// Product "photos" for the demo listings: a laptop drawing on a soft studio backdrop, rendered
// to WebP in the shop's one aspect ratio (4:3) at card, medium and detail sizes.

import sharp from 'sharp'
import { darken, fmt, mix, polygon } from './geometry'
import { drawLaptop, type LaptopLook, type LaptopPose } from './laptop-art'

export const PHOTO_VIEWS = ['front', 'angled-left', 'angled-right', 'closed'] as const
export type PhotoView = (typeof PHOTO_VIEWS)[number]

export const PHOTO_VIEW_LABELS: Record<PhotoView, string> = {
  front: 'front',
  'angled-left': 'angled',
  'angled-right': 'angled',
  closed: 'lid closed',
}

const POSES: Record<PhotoView, LaptopPose> = {
  front: { open: true, yaw: 0, pitch: 24, tilt: 12 },
  'angled-left': { open: true, yaw: 32, pitch: 20, tilt: 14 },
  'angled-right': { open: true, yaw: -32, pitch: 20, tilt: 14 },
  closed: { open: false, yaw: -24, pitch: 40 },
}

/** Studio backdrops: top and bottom colours of a seamless paper sweep. */
export const BACKDROPS: readonly (readonly [string, string])[] = [
  ['#f4f6f8', '#dde3ea'],
  ['#f7f3ee', '#e6ddd2'],
  ['#eef5f3', '#d5e5e0'],
  ['#f3f1f8', '#dfdbeb'],
  ['#eef3f9', '#d3dfee'],
  ['#f6f6f4', '#e2e2dc'],
]

export const CARD_SIZE = { width: 640, height: 480 } as const
export const MEDIUM_SIZE = { width: 960, height: 720 } as const
export const DETAIL_SIZE = { width: 1280, height: 960 } as const

type PhotoLayers = { backdrop: string; laptop: string }

/**
 * The photo as two SVG layers: the backdrop with its soft shadows, drawn at a quarter of the size
 * (blurs are costly at full size and a smooth backdrop loses nothing when enlarged), and the
 * laptop at full size on a transparent canvas.
 */
export function drawProductPhotoLayers(
  look: LaptopLook,
  view: PhotoView,
  backdrop: number,
  size: { width: number; height: number } = DETAIL_SIZE,
): PhotoLayers {
  const { width, height } = size
  const [top, bottom] = BACKDROPS[backdrop % BACKDROPS.length] as readonly [string, string]
  const closed = view === 'closed'
  const laptop = drawLaptop(
    look,
    POSES[view],
    {
      cx: width / 2,
      cy: height * 0.5,
      width: width * (closed ? 0.7 : 0.78),
      height: height * (closed ? 0.62 : 0.74),
    },
    'lt',
  )
  const q = 4
  const foot = laptop.footprint.map(([x, y]) => [x / q, y / q] as const)
  const w = width / q
  const h = height / q
  const shade = darken(bottom, 0.65)
  const shifted = (dy: number) => polygon(foot.map(([x, y]) => [x, y + dy]))
  const backdropSvg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><defs>` +
    `<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="0.62" stop-color="${mix(top, bottom, 0.55)}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>` +
    `<radialGradient id="spot" cx="0.5" cy="0.4" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.75"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>` +
    `<filter id="wide" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${fmt(w / 28)}"/></filter>` +
    `<filter id="soft" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="${fmt(w / 170)}"/></filter>` +
    `</defs>` +
    `<rect width="${w}" height="${h}" fill="url(#bg)"/><rect width="${w}" height="${h}" fill="url(#spot)"/>` +
    `<polygon points="${shifted(h * 0.035)}" fill="${shade}" opacity="0.3" filter="url(#wide)"/>` +
    `<polygon points="${shifted(h * 0.008)}" fill="${shade}" opacity="0.6" filter="url(#soft)"/>` +
    `</svg>`
  const laptopSvg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${laptop.defs}</defs>${laptop.body}</svg>`
  return { backdrop: backdropSvg, laptop: laptopSvg }
}

// Backdrops depend only on the view and the colours, so a seed draws each one once.
const backdropCache = new Map<string, Promise<string>>()

function backdropDataUri(svg: string): Promise<string> {
  let uri = backdropCache.get(svg)
  if (!uri) {
    uri = sharp(Buffer.from(svg))
      .png({ compressionLevel: 1 })
      .toBuffer()
      .then((png) => `data:image/png;base64,${png.toString('base64')}`)
    uri.catch(() => backdropCache.delete(svg))
    backdropCache.set(svg, uri)
  }
  return uri
}

/** The whole photo as one SVG: the small backdrop enlarged underneath the full-size laptop. */
export async function composeProductPhotoSvg(
  look: LaptopLook,
  view: PhotoView,
  backdrop: number,
  size: { width: number; height: number } = DETAIL_SIZE,
): Promise<string> {
  const layers = drawProductPhotoLayers(look, view, backdrop, size)
  const uri = await backdropDataUri(layers.backdrop)
  return layers.laptop.replace(
    /^(<svg[^>]*>)/,
    `$1<image href="${uri}" width="${size.width}" height="${size.height}" preserveAspectRatio="none"/>`,
  )
}

/** Renders one view once at detail size and derives the smaller sizes from it. */
export async function renderProductPhoto(
  look: LaptopLook,
  view: PhotoView,
  backdrop: number,
): Promise<{ card: Buffer; medium: Buffer; detail: Buffer }> {
  const svg = await composeProductPhotoSvg(look, view, backdrop, DETAIL_SIZE)
  const flat = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const image = () => sharp(flat.data, { raw: flat.info })
  const [detail, medium, card] = await Promise.all([
    // Low encoder effort: flat illustrations compress well anyway, and seeding stays quick.
    image().webp({ quality: 80, effort: 0 }).toBuffer(),
    // The size phones download on a listing's page gets an upload's usual effort: a third fewer bytes than at 1.
    image()
      .resize(MEDIUM_SIZE.width, MEDIUM_SIZE.height, { kernel: 'linear' })
      .webp({ quality: 80, effort: 4 })
      .toBuffer(),
    image()
      .resize(CARD_SIZE.width, CARD_SIZE.height, { kernel: 'linear' })
      .webp({ quality: 82, effort: 1 })
      .toBuffer(),
  ])
  return { card, medium, detail }
}

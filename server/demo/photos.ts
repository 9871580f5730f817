// Which pictures each demo listing gets, and writing them to media storage.

import type { MediaStorage } from '#server/lib/storage'
import { DEMO_BRANDS } from './brands'
import { hashString } from './geometry'
import type { LaptopLook } from './laptop-art'
import { BACKDROPS, type PhotoView, renderProductPhoto } from './product-photos'
import { type DemoProduct, PALETTES } from './products'

export type PlannedPhoto = {
  position: number
  view: PhotoView
  cardKey: string
  mediumKey: string
  detailKey: string
}

// 1 to 3 pictures a listing, different views, so cards and galleries do not all look alike.
const PHOTO_COUNTS = [2, 1, 3, 1, 2, 1]
const FIRST_VIEWS: PhotoView[] = ['angled-left', 'front', 'angled-right']

export function planPhotos(productId: string, index: number): PlannedPhoto[] {
  const count = PHOTO_COUNTS[index % PHOTO_COUNTS.length] as number
  const first = FIRST_VIEWS[index % FIRST_VIEWS.length] as PhotoView
  const views: PhotoView[] = [first, first === 'front' ? 'angled-left' : 'front', 'closed']
  return views.slice(0, count).map((view, i) => ({
    position: i + 1,
    view,
    cardKey: `products/${productId}/${i + 1}-card.webp`,
    mediumKey: `products/${productId}/${i + 1}-medium.webp`,
    detailKey: `products/${productId}/${i + 1}-detail.webp`,
  }))
}

export function lookOf(product: DemoProduct): LaptopLook {
  const brand = DEMO_BRANDS.find((b) => b.slug === product.brand)
  if (!brand) throw new Error(`Unknown demo brand ${product.brand}`)
  return {
    mark: brand.mark,
    chassis: product.look.chassis,
    keys: product.look.keys ?? '#1b1d21',
    ...(product.look.glow ? { glow: product.look.glow } : {}),
    os: brand.slug === 'apple' ? 'mac' : 'windows',
    wallpaper: {
      style: product.look.wallpaper,
      palette: PALETTES[product.look.palette],
      seed: hashString(product.slug),
    },
  }
}

type Rendered = { card: Buffer; medium: Buffer; detail: Buffer }

// The demo pictures never change, so one process renders each at most once (tests seed often).
const rendered = new Map<string, Promise<Rendered>>()

function renderOnce(look: LaptopLook, view: PhotoView, backdrop: number): Promise<Rendered> {
  const key = JSON.stringify([look, view, backdrop])
  let result = rendered.get(key)
  if (!result) {
    result = renderProductPhoto(look, view, backdrop)
    result.catch(() => rendered.delete(key))
    rendered.set(key, result)
  }
  return result
}

/** Renders and stores every planned picture, a few at a time. */
export async function writeDemoPhotos(
  storage: MediaStorage,
  jobs: { product: DemoProduct; index: number; photos: PlannedPhoto[] }[],
  concurrency = 3,
): Promise<number> {
  const tasks = jobs.flatMap(({ product, index, photos }) =>
    photos.map((photo) => ({ look: lookOf(product), backdrop: index % BACKDROPS.length, photo })),
  )
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]
      if (!task) break
      const { card, medium, detail } = await renderOnce(task.look, task.photo.view, task.backdrop)
      await storage.put(task.photo.cardKey, card)
      await storage.put(task.photo.mediumKey, medium)
      await storage.put(task.photo.detailKey, detail)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  return tasks.length
}

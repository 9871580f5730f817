import { describe, expect, it } from 'vitest'
import { photoSrcSet } from './product-image'

describe('photoSrcSet', () => {
  it('offers the medium size between the card and the detail when the photo has one', () => {
    expect(
      photoSrcSet({ card: '/m/1-card.webp', medium: '/m/1-medium.webp', detail: '/m/1-detail.webp' }),
    ).toBe('/m/1-card.webp 640w, /m/1-medium.webp 960w, /m/1-detail.webp 1280w')
  })

  it('offers the two sizes of a photo stored before the medium one existed', () => {
    expect(photoSrcSet({ card: '/m/1-card.webp', detail: '/m/1-detail.webp' })).toBe(
      '/m/1-card.webp 640w, /m/1-detail.webp 1280w',
    )
  })

  it('offers none for a picture with one address', () => {
    expect(photoSrcSet({ card: '/images/a.webp', detail: '/images/a.webp' })).toBeUndefined()
  })
})

import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeXhr } from './fake-xhr'
import { PhotoPicker } from './photo-picker'
import { checkPhotoFile } from './upload-photo'
import { type ExistingPhoto, usePhotoUploads } from './use-photo-uploads'

function Harness({ initial }: { initial?: ExistingPhoto[] }) {
  const photos = usePhotoUploads(initial)
  return <PhotoPicker photos={photos} />
}

function jpeg(name: string, size = 1000) {
  return new File([new Uint8Array(size)], name, { type: 'image/jpeg' })
}

function pick(...files: File[]) {
  fireEvent.change(screen.getByLabelText(/Add (more )?photos/), { target: { files } })
}

function tiles() {
  return screen.queryAllByTestId('photo-tile')
}

/** The server's answer; awaited, since the upload settles through promises. */
async function answer(index: number, id: string) {
  await act(async () => {
    FakeXhr.requests[index]?.respond(201, { _id: id, card: `/media/${id}-card.webp`, detail: '' })
  })
}

beforeEach(() => FakeXhr.install())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('checkPhotoFile', () => {
  it('takes JPEG, PNG and WebP up to 10 MB, with the server’s messages otherwise', () => {
    expect(checkPhotoFile({ type: 'image/png', size: 10 * 1024 * 1024 })).toBeUndefined()
    expect(checkPhotoFile({ type: 'image/gif', size: 10 })).toBe('This file is not a JPEG, PNG or WebP image')
    expect(checkPhotoFile({ type: 'image/webp', size: 10 * 1024 * 1024 + 1 })).toBe(
      'Images must be 10 MB or smaller',
    )
  })
})

describe('PhotoPicker', () => {
  it('uploads each picked photo as multipart "file" with a progress bar, then shows its thumbnail', async () => {
    render(<Harness />)
    pick(jpeg('desk.jpg'))

    const request = FakeXhr.requests[0]
    expect(request?.method).toBe('POST')
    expect(request?.url).toBe('/api/uploads')
    expect((request?.body?.get('file') as File | undefined)?.name).toBe('desk.jpg')

    const bar = screen.getByRole('progressbar', { name: 'Uploading desk.jpg' })
    expect(bar.getAttribute('aria-valuenow')).toBe('0')
    act(() => request?.progress(500, 1000))
    expect(bar.getAttribute('aria-valuenow')).toBe('50')
    // The last byte sent is not the end: the server still has to resize the photo.
    act(() => request?.progress(1000, 1000))
    expect(bar.getAttribute('aria-valuenow')).toBe('99')

    await answer(0, 'u1')
    expect(screen.queryByRole('progressbar')).toBeNull()
    const thumbnail = screen.getByRole('img', { name: 'Your laptop, 1 of 1 (cover)' })
    expect(thumbnail.getAttribute('src')).toBe('/media/u1-card.webp')
  })

  it('refuses a wrong type or an oversized file on the photo itself, without uploading it', () => {
    render(<Harness />)
    pick(
      new File(['x'], 'notes.txt', { type: 'text/plain' }),
      new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.jpg', { type: 'image/jpeg' }),
    )
    expect(FakeXhr.requests).toHaveLength(0)
    const [text, huge] = tiles()
    expect(text?.textContent).toContain('This file is not a JPEG, PNG or WebP image')
    expect(huge?.textContent).toContain('Images must be 10 MB or smaller')
  })

  it('shows the server’s message on the photo it refused', async () => {
    render(<Harness />)
    pick(jpeg('renamed.jpg'))
    await act(async () =>
      FakeXhr.requests[0]?.respond(400, {
        error: {
          code: 'VALIDATION',
          message: 'This file is not a JPEG, PNG or WebP image',
          fields: { file: 'This file is not a JPEG, PNG or WebP image' },
        },
      }),
    )
    expect(tiles()[0]?.textContent).toContain('This file is not a JPEG, PNG or WebP image')
  })

  it('takes at most 6 photos and says so', () => {
    render(<Harness />)
    pick(...Array.from({ length: 8 }, (_, i) => jpeg(`p${i}.jpg`)))
    expect(FakeXhr.requests).toHaveLength(6)
    expect(tiles()).toHaveLength(6)
    expect(screen.getByRole('alert').textContent).toContain('At most 6 photos')
    expect((screen.getByLabelText('Add more photos') as HTMLInputElement).disabled).toBe(true)
  })

  it('moves photos earlier and later with buttons, keeping focus on the moved photo', async () => {
    render(<Harness />)
    pick(jpeg('a.jpg'), jpeg('b.jpg'), jpeg('c.jpg'))
    await answer(0, 'a')
    await answer(1, 'b')
    await answer(2, 'c')
    const order = () => tiles().map((t) => within(t).getByRole('img').getAttribute('src'))
    expect(order()).toEqual(['/media/a-card.webp', '/media/b-card.webp', '/media/c-card.webp'])

    const moveEarlier = screen.getByRole('button', { name: 'Move photo 3 earlier' })
    fireEvent.click(moveEarlier)
    expect(order()).toEqual(['/media/a-card.webp', '/media/c-card.webp', '/media/b-card.webp'])
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move photo 2 earlier')

    fireEvent.click(screen.getByRole('button', { name: 'Move photo 2 earlier' }))
    expect(order()).toEqual(['/media/c-card.webp', '/media/a-card.webp', '/media/b-card.webp'])
    // At the front "earlier" is disabled, so focus moves to its partner.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move photo 1 later')
    expect(screen.getByRole('img', { name: 'Your laptop, 1 of 3 (cover)' }).getAttribute('src')).toBe(
      '/media/c-card.webp',
    )
  })

  it('removes a photo, cancelling its upload if it is still going', () => {
    render(<Harness initial={[{ card: '/media/old-card.webp', detail: '/media/old-detail.webp' }]} />)
    pick(jpeg('new.jpg'))
    expect(tiles()).toHaveLength(2)
    const aborted = vi.fn()
    const request = FakeXhr.requests[0]
    if (request) request.abort = aborted
    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 2' }))
    expect(aborted).toHaveBeenCalled()
    expect(tiles()).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 1' }))
    expect(tiles()).toHaveLength(0)
  })
})

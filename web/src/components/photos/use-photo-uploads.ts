import { useCallback, useEffect, useRef, useState } from 'react'
import { UPLOAD_LIMITS } from '#contract/products'
import { errorMessage } from '../../lib/api-client'
import { checkPhotoFile, PHOTO_MESSAGES, uploadPhoto } from './upload-photo'

export type PhotoStatus = 'uploading' | 'done' | 'error' | 'existing'

/** One photo on the form: a new file being uploaded or uploaded, or a photo the listing already has. */
export type PhotoItem = {
  key: string
  label: string
  status: PhotoStatus
  /** 0 to 100 while uploading. */
  progress: number
  /** The card-size image to show once there is one. */
  thumbnail?: string
  /** The upload's id, sent to the server in `images`. */
  uploadId?: string
  /** An existing photo's detail-size URL, copied into a new upload if the seller changes the photos. */
  detail?: string
  error?: string
}

export type ExistingPhoto = { card: string; detail: string }

let nextKey = 0
const makeKey = () => `photo-${++nextKey}`

/** How many photos will be on the listing: the ones uploaded, uploading or kept. */
export function countPhotos(items: PhotoItem[]): number {
  return items.filter((p) => p.status !== 'error').length
}

/**
 * The photos of the add and edit forms. Each picked file is checked, then uploaded at once with its
 * progress; the seller can remove and reorder them while others are still uploading.
 */
export function usePhotoUploads(initial: ExistingPhoto[] = [], uploadUrl?: string) {
  const [items, setItems] = useState<PhotoItem[]>(() =>
    initial.map((p, i) => ({
      key: makeKey(),
      label: `Photo ${i + 1}`,
      status: 'existing' as const,
      progress: 100,
      thumbnail: p.card,
      detail: p.detail,
    })),
  )
  // Whether the seller has added, removed or moved anything: unchanged photos are not sent on edit.
  const [isChanged, setIsChanged] = useState(false)
  const [pickMessage, setPickMessage] = useState<string | undefined>()
  const aborts = useRef(new Map<string, () => void>())
  const itemsRef = useRef(items)
  itemsRef.current = items

  useEffect(() => {
    const pending = aborts.current
    return () => {
      for (const abort of pending.values()) abort()
    }
  }, [])

  const update = useCallback((key: string, patch: Partial<PhotoItem>) => {
    setItems((current) => current.map((p) => (p.key === key ? { ...p, ...patch } : p)))
  }, [])

  /** Uploads one blob into an item, resolving with the upload id (or undefined when it failed). */
  const startUpload = useCallback(
    (key: string, file: Blob) => {
      const handle = uploadPhoto(
        file,
        ({ loaded, total }) =>
          // Never 100 before the server has answered: resizing happens after the last byte arrives.
          update(key, { progress: Math.min(99, Math.round((loaded / total) * 100)) }),
        uploadUrl,
      )
      aborts.current.set(key, handle.abort)
      return handle.promise
        .then((upload) => {
          update(key, { status: 'done', progress: 100, uploadId: upload._id, thumbnail: upload.card })
          return upload._id
        })
        .catch((err: unknown) => {
          if (err instanceof DOMException && err.name === 'AbortError') return undefined
          update(key, {
            status: 'error',
            error: errorMessage(err, 'The photo could not be uploaded. Please try again.'),
          })
          return undefined
        })
        .finally(() => aborts.current.delete(key))
    },
    [update, uploadUrl],
  )

  const addFiles = useCallback(
    (files: Iterable<File>) => {
      let room = UPLOAD_LIMITS.maxPhotos - countPhotos(itemsRef.current)
      const added: PhotoItem[] = []
      const toUpload: [string, File][] = []
      let isOverLimit = false
      for (const file of files) {
        const problem = checkPhotoFile(file)
        if (!problem && room <= 0) {
          isOverLimit = true
          continue
        }
        const key = makeKey()
        if (problem) {
          added.push({ key, label: file.name, status: 'error', progress: 0, error: problem })
          continue
        }
        room -= 1
        added.push({ key, label: file.name, status: 'uploading', progress: 0 })
        toUpload.push([key, file])
      }
      setPickMessage(isOverLimit ? `${PHOTO_MESSAGES.count}: the rest were left out` : undefined)
      if (added.length === 0) return
      setItems((current) => [...current, ...added])
      setIsChanged(true)
      for (const [key, file] of toUpload) void startUpload(key, file)
    },
    [startUpload],
  )

  const removePhoto = useCallback((key: string) => {
    aborts.current.get(key)?.()
    setItems((current) => current.filter((p) => p.key !== key))
    setIsChanged(true)
    setPickMessage(undefined)
  }, [])

  const movePhoto = useCallback((key: string, offset: -1 | 1) => {
    setItems((current) => {
      const from = current.findIndex((p) => p.key === key)
      const to = from + offset
      if (from < 0 || to < 0 || to >= current.length) return current
      const next = [...current]
      const [moved] = next.splice(from, 1)
      if (moved) next.splice(to, 0, moved)
      return next
    })
    setIsChanged(true)
  }, [])

  /**
   * The upload ids in order, for the request. A kept photo has no upload id of its own (a listing's
   * photos are not addressable), so when the photos changed it is copied into a new upload first.
   */
  const collectUploadIds = useCallback(async (): Promise<string[] | undefined> => {
    const current = itemsRef.current
    const ids = await Promise.all(
      current.map(async (p) => {
        if (p.status === 'done') return p.uploadId
        if (p.status !== 'existing' || !p.detail) return undefined
        update(p.key, { status: 'uploading', progress: 0 })
        try {
          const res = await fetch(p.detail, { credentials: 'same-origin' })
          if (!res.ok) throw new Error(String(res.status))
          const id = await startUpload(p.key, await res.blob())
          if (id) update(p.key, { detail: undefined })
          return id
        } catch {
          update(p.key, {
            status: 'error',
            error: 'This photo could not be kept. Remove it, or add it again from your device.',
          })
          return undefined
        }
      }),
    )
    const kept = current.filter((p) => p.status !== 'error')
    if (ids.filter(Boolean).length !== kept.length) return undefined
    return ids.filter((id): id is string => Boolean(id))
  }, [startUpload, update])

  return {
    items,
    isChanged,
    pickMessage,
    isUploading: items.some((p) => p.status === 'uploading'),
    addFiles,
    removePhoto,
    movePhoto,
    collectUploadIds,
  }
}

export type PhotoUploads = ReturnType<typeof usePhotoUploads>

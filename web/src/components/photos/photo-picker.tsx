import { ArrowLeft, ArrowRight, ImagePlus, LoaderCircle, TriangleAlert, X } from 'lucide-react'
import { type DragEvent, useEffect, useId, useRef, useState } from 'react'
import { plural } from '#contract/plural'
import { UPLOAD_LIMITS } from '#contract/products'
import { cn } from '../ui/cn'
import { ACCEPTED_PHOTO_TYPES } from './upload-photo'
import { countPhotos, type PhotoItem, type PhotoUploads } from './use-photo-uploads'

type PhotoPickerProps = {
  photos: PhotoUploads
  /** The form's message for the photos (at least one, still uploading, ...). */
  error?: string
  /** What the photos are for, under the legend (a listing's: the first is its cover). */
  hint?: string
}

type FocusRequest = { key: string; action: 'earlier' | 'later' }

/**
 * Pick 1 to 6 photos. Each uploads at once with its own progress bar; the seller can remove them and
 * move them earlier or later (the first is the cover) with buttons that work from the keyboard.
 */
export function PhotoPicker({ photos, error, hint }: PhotoPickerProps) {
  const inputId = useId()
  const hintId = useId()
  const errorId = useId()
  const listRef = useRef<HTMLOListElement>(null)
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null)
  const [isDragOver, setIsDragOver] = useState(false)
  const count = countPhotos(photos.items)
  const isFull = count >= UPLOAD_LIMITS.maxPhotos
  const message = error ?? photos.pickMessage
  const uploading = photos.items.filter((p) => p.status === 'uploading').length
  const ready = photos.items.filter((p) => p.status === 'done' || p.status === 'existing').length

  // A moved tile is a re-inserted DOM node, which drops focus: put it back on the button just used,
  // or on its partner when the photo reached an end and that button is now disabled.
  useEffect(() => {
    if (!focusRequest || !listRef.current) return
    const { key, action } = focusRequest
    const find = (a: string) =>
      listRef.current?.querySelector<HTMLButtonElement>(`[data-photo-key="${key}"][data-action="${a}"]`)
    const wanted = find(action)
    const target = wanted && !wanted.disabled ? wanted : find(action === 'earlier' ? 'later' : 'earlier')
    target?.focus()
    setFocusRequest(null)
  }, [focusRequest])

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault()
    setIsDragOver(false)
    if (!isFull) photos.addFiles(Array.from(event.dataTransfer.files))
  }

  return (
    <fieldset className="space-y-3" aria-describedby={message ? `${hintId} ${errorId}` : hintId}>
      <legend className="font-semibold text-lg text-slate-900">Photos</legend>
      <p id={hintId} className="text-slate-600 text-sm">
        1 to {UPLOAD_LIMITS.maxPhotos} photos, JPEG, PNG or WebP, up to 10 MB each.{' '}
        {hint ?? 'The first photo is the cover.'}
      </p>

      {photos.items.length > 0 ? (
        <ol ref={listRef} className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Chosen photos">
          {photos.items.map((photo, index) => (
            <PhotoTile
              key={photo.key}
              photo={photo}
              index={index}
              total={photos.items.length}
              onRemove={() => photos.removePhoto(photo.key)}
              onMove={(action) => {
                photos.movePhoto(photo.key, action === 'earlier' ? -1 : 1)
                setFocusRequest({ key: photo.key, action })
              }}
            />
          ))}
        </ol>
      ) : null}

      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files dragged from the desktop; the labelled file input beside it is the way for keyboards and screen readers */}
      <div
        onDragOver={(event) => {
          event.preventDefault()
          if (!isFull) setIsDragOver(true)
        }}
        onDragLeave={() => setIsDragOver(false)}
        onDrop={onDrop}
        className={cn(
          'rounded-xl border-2 border-dashed p-4 text-center',
          isDragOver ? 'border-accent bg-accent-soft' : 'border-slate-300 bg-white',
        )}
      >
        <input
          id={inputId}
          type="file"
          accept={ACCEPTED_PHOTO_TYPES.join(',')}
          multiple
          disabled={isFull}
          className="peer sr-only"
          onChange={(event) => {
            photos.addFiles(Array.from(event.currentTarget.files ?? []))
            // The same file can be picked again after it was removed.
            event.currentTarget.value = ''
          }}
        />
        <label
          htmlFor={inputId}
          className={cn(
            'inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 font-semibold text-slate-900 text-sm hover:bg-slate-50',
            'peer-focus-visible:outline-3 peer-focus-visible:outline-accent peer-focus-visible:outline-offset-2',
            'peer-disabled:cursor-not-allowed peer-disabled:opacity-60',
          )}
        >
          <ImagePlus aria-hidden="true" className="size-5" />
          {count === 0 ? 'Add photos' : 'Add more photos'}
        </label>
        <p className="mt-2 text-slate-600 text-xs">
          {isFull
            ? `${count} of ${UPLOAD_LIMITS.maxPhotos} photos: remove one to add another.`
            : 'or drop them here'}
        </p>
      </div>

      {/* Progress bars are silent for screen readers; this says when photos are ready. */}
      <p className="sr-only" aria-live="polite">
        {uploading > 0
          ? `Uploading ${uploading} of ${uploading + ready} photos`
          : `${plural(ready, 'photo')} ready`}
      </p>

      {message ? (
        <p id={errorId} className="text-red-700 text-sm" role="alert">
          {message}
        </p>
      ) : null}
    </fieldset>
  )
}

type PhotoTileProps = {
  photo: PhotoItem
  index: number
  total: number
  onRemove: () => void
  onMove: (action: 'earlier' | 'later') => void
}

function PhotoTile({ photo, index, total, onRemove, onMove }: PhotoTileProps) {
  const position = `photo ${index + 1}`
  const isFailed = photo.status === 'error'
  return (
    <li
      data-testid="photo-tile"
      className={cn(
        'flex flex-col overflow-hidden rounded-lg border bg-white',
        isFailed ? 'border-red-300' : 'border-slate-200',
      )}
    >
      <div className="relative aspect-[4/3] bg-slate-100">
        {photo.thumbnail && (photo.status === 'done' || photo.status === 'existing') ? (
          <img
            src={photo.thumbnail}
            alt={`Your laptop, ${index + 1} of ${total}${index === 0 ? ' (cover)' : ''}`}
            width={320}
            height={240}
            className="size-full object-cover"
          />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-2 p-2 text-center text-slate-600">
            {isFailed ? (
              <TriangleAlert aria-hidden="true" className="size-6 text-red-700" />
            ) : (
              <LoaderCircle aria-hidden="true" className="size-6 animate-spin motion-reduce:animate-none" />
            )}
            <span className="line-clamp-2 break-all text-xs">{photo.label}</span>
          </div>
        )}
        {index === 0 && !isFailed ? (
          <span className="absolute top-2 left-2 rounded-full bg-slate-800 px-2 py-0.5 font-medium text-white text-xs">
            Cover
          </span>
        ) : null}
      </div>

      <div className="flex flex-1 flex-col gap-2 p-2">
        {photo.status === 'uploading' ? (
          <div className="space-y-1">
            <div
              role="progressbar"
              aria-label={`Uploading ${photo.label}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={photo.progress}
              className="h-2 overflow-hidden rounded-full bg-slate-200"
            >
              <div
                className="h-full rounded-full bg-accent transition-[width] motion-reduce:transition-none"
                style={{ width: `${photo.progress}%` }}
              />
            </div>
            <p className="text-slate-600 text-xs">Uploading… {photo.progress}%</p>
          </div>
        ) : null}
        {isFailed ? (
          <p className="text-red-700 text-xs" role="alert">
            {photo.error}
          </p>
        ) : null}

        <div className="mt-auto flex items-center justify-between gap-1">
          <div className="flex gap-1">
            <TileButton
              action="earlier"
              photoKey={photo.key}
              label={`Move ${position} earlier`}
              disabled={index === 0 || isFailed}
              onClick={() => onMove('earlier')}
            >
              <ArrowLeft aria-hidden="true" className="size-4" />
            </TileButton>
            <TileButton
              action="later"
              photoKey={photo.key}
              label={`Move ${position} later`}
              disabled={index === total - 1 || isFailed}
              onClick={() => onMove('later')}
            >
              <ArrowRight aria-hidden="true" className="size-4" />
            </TileButton>
          </div>
          <TileButton action="remove" photoKey={photo.key} label={`Remove ${position}`} onClick={onRemove}>
            <X aria-hidden="true" className="size-4" />
          </TileButton>
        </div>
      </div>
    </li>
  )
}

function TileButton({
  action,
  photoKey,
  label,
  disabled,
  onClick,
  children,
}: {
  action: string
  photoKey: string
  label: string
  disabled?: boolean
  onClick: () => void
  children: React.ReactNode
}) {
  return (
    <button
      type="button"
      data-photo-key={photoKey}
      data-action={action}
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex size-9 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40"
    >
      {children}
    </button>
  )
}

import { zodResolver } from '@hookform/resolvers/zod'
import { TriangleAlert } from 'lucide-react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { type DefaultValues, type FieldPath, type Resolver, useForm } from 'react-hook-form'
import type { z } from 'zod'
import { BATTERY_REPORT_HOW_TO } from '#contract/battery-reports'
import type { Brand } from '#contract/brands'
import { PARCEL_SIZE_KEYS, PARCEL_SIZES, parcelSizeFor } from '#contract/delivery'
import {
  BATTERY_HOW_TO,
  batteryGradeProblem,
  batteryMismatch,
  CONDITION_DEFINITIONS,
  Condition,
  type Product,
  ProductFields,
  UPLOAD_LIMITS,
} from '#contract/products'
import { GuideLink } from '../../components/guide-link'
import { PhotoPicker } from '../../components/photos/photo-picker'
import { PHOTO_MESSAGES } from '../../components/photos/upload-photo'
import {
  countPhotos,
  type ExistingPhoto,
  type PhotoItem,
  usePhotoUploads,
} from '../../components/photos/use-photo-uploads'
import { batteryEvidenceText } from '../../components/product/product-status'
import { Button } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { FormField, FormSection } from '../../components/ui/form-field'
import { errorMessage, isApiError } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { FeeHint } from './fee-hint'
import { PriceGuideHint } from './price-guide-hint'

export type ProductFormInput = z.input<typeof ProductFields>
export type ProductFormValues = z.output<typeof ProductFields>

/** What the form hands to its page: the checked fields, with `images`/`img` only when they are to be sent. */
export type ProductSubmission = ProductFormValues

export type SellerIdentity = { name: string; email: string }

type ProductFormProps = {
  seller: SellerIdentity
  brands: Brand[]
  submitLabel: string
  /** The listing being edited; absent when adding. */
  product?: Product
  /** The battery report chosen on the form, if any, is uploaded by the page once the listing is saved. */
  onSubmit: (values: ProductSubmission, batteryReport?: File) => Promise<void>
}

const FIELD_NAMES = new Set(Object.keys(ProductFields.shape))

/** A photo given as a URL comes back with the same address for both sizes. */
function isUrlPhoto(photo: ExistingPhoto) {
  return photo.card === photo.detail && /^https?:\/\//i.test(photo.card)
}

/** Dollars as a seller would type them: "800", or "499.50" rather than "499.5". */
function centsToInput(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2)
}

/** The edit form's starting values; numbers become the strings an input holds. */
function toFormInput(product: Product | undefined): DefaultValues<ProductFormInput> & { img: string } {
  const urlPhoto = product?.images.find(isUrlPhoto)
  return {
    name: product?.name ?? '',
    category_id: product?.category_id ?? '',
    seller_phone: product?.seller_phone ?? '',
    resale_price: product ? centsToInput(product.resale_price_cents) : '',
    original_price: product ? centsToInput(product.original_price_cents) : '',
    description: product?.description ?? '',
    condition: product?.condition,
    location: product?.location ?? '',
    uses: product ? String(product.uses) : '',
    processor: product?.processor ?? '',
    ram_gb: product ? String(product.ram_gb) : '',
    storage_gb: product ? String(product.storage_gb) : '',
    screen_inches: product ? String(product.screen_inches) : '',
    battery_health_pct: product?.battery_health_pct != null ? String(product.battery_health_pct) : '',
    battery_cycles: product?.battery_cycles != null ? String(product.battery_cycles) : '',
    serial_number: '',
    img: urlPhoto?.card ?? '',
    offers_enabled: product?.offers_enabled ?? true,
    offer_floor: product?.offer_floor_cents != null ? centsToInput(product.offer_floor_cents) : '',
    delivery: product?.delivery ?? 'meet',
    parcel_size: product?.parcel && !product.parcel.size_is_default ? product.parcel.size : '',
    parcel_weight_oz:
      product?.parcel && !product.parcel.weight_is_default ? String(product.parcel.weight_oz) : '',
    ship_from: {
      name: product?.ship_from?.name ?? '',
      street1: product?.ship_from?.street1 ?? '',
      street2: product?.ship_from?.street2 ?? '',
      city: product?.ship_from?.city ?? '',
      state: product?.ship_from?.state ?? '',
      zip: product?.ship_from?.zip ?? '',
      country: 'US',
      phone: product?.ship_from?.phone ?? '',
    },
  }
}

/** Why the photos cannot be sent yet, if they cannot. */
function checkPhotos(items: PhotoItem[], img: unknown): string | undefined {
  const total = countPhotos(items) + (typeof img === 'string' && img.trim() ? 1 : 0)
  if (items.some((p) => p.status === 'uploading')) return 'Wait for the photos to finish uploading'
  if (total === 0) return PHOTO_MESSAGES.required
  if (total > UPLOAD_LIMITS.maxPhotos) return PHOTO_MESSAGES.count
  return undefined
}

/**
 * The add and edit form: every field of a listing, checked with the schema the server uses, each message
 * under its field, and the server's own field messages put back on the fields after it answers.
 */
export function ProductForm({ seller, brands, submitLabel, product, onSubmit }: ProductFormProps) {
  const initialPhotos = useRef((product?.images ?? []).filter((p) => !isUrlPhoto(p))).current
  const initialImg = useRef(toFormInput(product).img).current
  const photos = usePhotoUploads(initialPhotos)
  const [batteryReport, setBatteryReport] = useState<File | null>(null)
  const batteryVerified = product?.battery_verified === true
  const photosRef = useRef(photos)
  photosRef.current = photos

  // The schema checks the fields; the photos live outside the form's values, so their rule is added here.
  const resolver = useRef<Resolver<ProductFormInput, unknown, ProductFormValues>>(
    async (values, context, options) => {
      const readyIds = photosRef.current.items.flatMap((p) => (p.uploadId ? [p.uploadId] : []))
      // The address it ships from is asked only when it ships.
      const ships = values.delivery === 'ship' || values.delivery === 'both'
      const result = await zodResolver(ProductFields)(
        { ...values, images: readyIds, ship_from: ships ? values.ship_from : undefined },
        context,
        options,
      )
      const photoError = checkPhotos(photosRef.current.items, values.img)
      // The battery must agree with the grade, as the server checks.
      const parsed = result.values as Partial<ProductFormValues>
      const batteryError = batteryGradeProblem(parsed.condition, parsed.battery_health_pct)
      if (!photoError && !batteryError) return result
      return {
        values: {},
        errors: {
          ...result.errors,
          ...(photoError ? { images: { type: 'photos', message: photoError } } : {}),
          ...(batteryError ? { battery_health_pct: { type: 'grade', message: batteryError } } : {}),
        },
      }
    },
  ).current

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isSubmitted },
    watch,
    trigger,
  } = useForm<ProductFormInput, unknown, ProductFormValues>({
    resolver,
    defaultValues: toFormInput(product),
  })

  const submit = handleSubmit(async (values) => {
    const img = values.img?.trim() || undefined
    const isEdit = Boolean(product)
    const photosUnchanged = !photos.isChanged && (img ?? '') === initialImg
    let body: ProductSubmission = { ...values, images: undefined, img: undefined }
    if (!isEdit || !photosUnchanged) {
      const images = await photos.collectUploadIds()
      if (!images) {
        setError('images', { type: 'copy', message: 'Some photos could not be uploaded' })
        return
      }
      body = { ...values, images, img }
    }
    try {
      await onSubmit(body, batteryReport ?? undefined)
    } catch (err) {
      const message = errorMessage(err)
      for (const [key, fieldMessage] of Object.entries(isApiError(err) ? (err.fields ?? {}) : {})) {
        const name = key.split('.')[0] ?? ''
        if (FIELD_NAMES.has(name)) {
          setError(name as FieldPath<ProductFormInput>, { type: 'server', message: fieldMessage })
        }
      }
      toast.error(message)
    }
  })

  // Add Product pressed while photos upload: the fields are checked now, and the listing is saved as soon as
  // the last upload ends (the button says so meanwhile), rather than refused with a message far up the form.
  const [savingAfterUploads, setSavingAfterUploads] = useState(false)
  const onFormSubmit = async (event: FormEvent<HTMLFormElement>) => {
    if (!photosRef.current.isUploading) return submit(event)
    event.preventDefault()
    const fields = [...FIELD_NAMES].filter((name) => name !== 'images') as FieldPath<ProductFormInput>[]
    if (await trigger(fields, { shouldFocus: true })) setSavingAfterUploads(true)
  }
  useEffect(() => {
    if (!savingAfterUploads || photos.isUploading) return
    setSavingAfterUploads(false)
    void submit()
  }, [savingAfterUploads, photos.isUploading, submit])

  const err = (name: keyof ProductFormInput) => errors[name]?.message as string | undefined
  const addressErr = (name: string) =>
    (errors.ship_from as Record<string, { message?: string }> | undefined)?.[name]?.message ??
    (name === 'street1' ? err('ship_from') : undefined)
  const delivery = watch('delivery')
  const ships = delivery === 'ship' || delivery === 'both'
  const screen = Number(watch('screen_inches'))
  const boxForScreen = PARCEL_SIZES[parcelSizeFor(Number.isFinite(screen) && screen > 0 ? screen : 15.6)]
  const chosenBox = watch('parcel_size')
  const box = chosenBox ? PARCEL_SIZES[chosenBox as keyof typeof PARCEL_SIZES] : boxForScreen
  // Once the seller has tried to submit, the photo message follows the photos and the URL as they change;
  // a message from the server stays until the next submit.
  const imgValue = watch('img')
  // Not a refusal: a warning while the seller types, because a listing that says two things loses trust.
  const batteryText = watch('battery_health_pct')
  const batteryWarning = batteryMismatch(
    watch('description') ?? '',
    batteryText === '' || batteryText === undefined ? null : Number(batteryText),
  )
  const photoError =
    isSubmitted && !isSubmitting
      ? (checkPhotos(photos.items, imgValue) ??
        (errors.images?.type === 'photos' ? undefined : err('images')))
      : undefined

  return (
    <form noValidate onSubmit={onFormSubmit} className="space-y-6" aria-label={submitLabel}>
      <p className="text-slate-700 text-sm" data-testid="selling-guides">
        New to selling? Read <GuideLink slug="wiping-a-laptop">how to wipe a laptop before selling</GuideLink>
        , <GuideLink slug="battery-health">how to read its battery health</GuideLink> and{' '}
        <GuideLink slug="pricing">how to price it from the price guide</GuideLink>.
      </p>
      <FormSection title="The laptop">
        <FormField label="Product name" error={err('name')} className="sm:col-span-2">
          <input type="text" autoComplete="off" {...register('name')} />
        </FormField>
        <FormField label="Brand" error={err('category_id')}>
          <select {...register('category_id')}>
            <option value="">Please select a category</option>
            {brands.map((brand) => (
              <option key={brand._id} value={brand._id}>
                {brand.brand_name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          label="Serial number"
          hint={
            product?.serial_last4
              ? `Kept private; buyers see only the last four characters (now …${product.serial_last4}). Leave empty to keep it.`
              : 'Kept private; buyers see only the last four characters, to check on the laptop at handover. Windows: Settings → System → About, or the label underneath; Mac: Apple menu → About This Mac.'
          }
          error={err('serial_number')}
          className="sm:col-span-2"
        >
          <input type="text" autoComplete="off" spellCheck={false} {...register('serial_number')} />
        </FormField>
        <FormField label="Years of use" error={err('uses')}>
          <input type="number" inputMode="numeric" min={0} max={30} step={1} {...register('uses')} />
        </FormField>
        <ConditionChoice error={err('condition')} register={register('condition')} />
      </FormSection>

      <FormSection title="Specifications" description="Buyers filter by these, so give the exact figures.">
        <FormField label="Processor" error={err('processor')} className="sm:col-span-2">
          <input type="text" placeholder="e.g. Intel Core i7-1165G7" {...register('processor')} />
        </FormField>
        <FormField label="RAM (GB)" error={err('ram_gb')}>
          <input type="number" inputMode="numeric" min={1} step={1} {...register('ram_gb')} />
        </FormField>
        <FormField label="Storage (GB)" error={err('storage_gb')}>
          <input type="number" inputMode="numeric" min={16} step={1} {...register('storage_gb')} />
        </FormField>
        <FormField label="Screen (inches)" error={err('screen_inches')}>
          <input
            type="number"
            inputMode="decimal"
            min={10}
            max={21}
            step={0.1}
            {...register('screen_inches')}
          />
        </FormField>
      </FormSection>

      <FormSection
        title="Battery"
        description="Upload the report your laptop writes about its battery: we read the health and cycle count from it and show them as read from your report file (with its date). Or type the figures; typed figures are shown as the seller's word."
      >
        <p className="text-sm sm:col-span-2">
          <GuideLink slug="battery-health" />
        </p>
        {batteryVerified && product ? (
          <p className="text-emerald-800 text-sm sm:col-span-2" data-testid="battery-verified-note">
            {batteryEvidenceText(product)}. Upload a newer report to update it; typed figures are replaced by
            the report's.
          </p>
        ) : null}
        <FormField
          label="Battery health (%)"
          hint="Excellent needs at least 85%, Good at least 75%."
          error={err('battery_health_pct')}
        >
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            readOnly={batteryVerified}
            {...register('battery_health_pct')}
          />
        </FormField>
        <FormField label="Charge cycles" error={err('battery_cycles')}>
          <input
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            readOnly={batteryVerified}
            {...register('battery_cycles')}
          />
        </FormField>
        <FormField
          label="Battery report"
          hint="The file the command below writes (.html or .txt, at most 5 MB). It stays private: only the health, cycles and date are shown."
          className="sm:col-span-2"
        >
          <input
            type="file"
            accept=".html,.htm,.txt,text/html,text/plain"
            data-testid="battery-report-input"
            onChange={(event) => setBatteryReport(event.currentTarget.files?.[0] ?? null)}
          />
        </FormField>
        <div className="text-slate-700 text-sm sm:col-span-2">
          <p className="font-medium text-slate-900">How to make the report</p>
          <dl className="mt-2 space-y-2">
            {BATTERY_REPORT_HOW_TO.map((how) => (
              <div key={how.system}>
                <dt className="font-medium text-slate-900">{how.system}</dt>
                <dd className="break-words">{how.steps}</dd>
              </div>
            ))}
          </dl>
        </div>
        <details className="text-slate-700 text-sm sm:col-span-2">
          <summary className="cursor-pointer font-medium text-accent">Reading the figures yourself</summary>
          <dl className="mt-2 space-y-2">
            {BATTERY_HOW_TO.map((how) => (
              <div key={how.system}>
                <dt className="font-medium text-slate-900">{how.system}</dt>
                <dd>{how.steps}</dd>
              </div>
            ))}
          </dl>
        </details>
      </FormSection>

      <FormSection title="Price" description="In US dollars.">
        <PriceGuideHint
          className="sm:col-span-2"
          specs={{
            brand: watch('category_id'),
            processor: watch('processor'),
            ram_gb: watch('ram_gb'),
            storage_gb: watch('storage_gb'),
          }}
        />
        <p className="text-sm sm:col-span-2">
          <GuideLink slug="pricing" />
        </p>
        <FormField label="Resale price" error={err('resale_price')}>
          <input type="number" inputMode="decimal" min={0} step={0.01} {...register('resale_price')} />
        </FormField>
        <FormField label="Original price" error={err('original_price')}>
          <input type="number" inputMode="decimal" min={0} step={0.01} {...register('original_price')} />
        </FormField>
        <FeeHint className="text-slate-700 text-sm sm:col-span-2" price={watch('resale_price')} />
        <label className="flex min-h-11 items-center gap-3 text-slate-800 text-sm sm:col-span-2">
          <input type="checkbox" className="size-5 accent-accent" {...register('offers_enabled')} />
          <span>
            <span className="font-medium">Take offers on this laptop</span>
            <span className="block text-slate-600 text-xs">
              Buyers can propose a lower price; you accept, decline or answer with yours. Your price stays as
              it is for everyone else.
            </span>
          </span>
        </label>
        {watch('offers_enabled') === false ? null : (
          <FormField
            label="Decline offers under ($)"
            hint="Optional. Offers under this are declined at once; offers under half your price never reach you."
            error={err('offer_floor')}
          >
            <input type="number" inputMode="decimal" min={0} step={0.01} {...register('offer_floor')} />
          </FormField>
        )}
      </FormSection>

      <section className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <PhotoPicker photos={photos} error={photoError} />
        <FormField
          label="Image URL"
          hint="Or instead: the address of a photo already online (https://)."
          error={err('img')}
        >
          <input type="url" inputMode="url" placeholder="https://" {...register('img')} />
        </FormField>
      </section>

      <FormSection title="Seller" description="Your name and email come from your account.">
        <FormField label="Seller name">
          <input type="text" readOnly value={seller.name} />
        </FormField>
        <FormField label="Seller email">
          <input type="email" readOnly value={seller.email} />
        </FormField>
        <FormField label="Phone number" error={err('seller_phone')}>
          <input type="tel" autoComplete="tel" {...register('seller_phone')} />
        </FormField>
        <FormField label="Location" error={err('location')}>
          <input type="text" autoComplete="address-level2" {...register('location')} />
        </FormField>
      </FormSection>

      <FormSection
        title="Delivery"
        description="How the buyer gets the laptop. A shipped laptop is paid with its shipping; you print the label from the sale."
      >
        <FormField label="How buyers get it" error={err('delivery')} className="sm:col-span-2">
          <select {...register('delivery')} data-testid="delivery-select">
            <option value="meet">Meet in person</option>
            <option value="ship">Ship it</option>
            <option value="both">Ship it or meet in person</option>
          </select>
        </FormField>
        {ships ? (
          <>
            <FormField
              label="Box"
              hint={`Leave on “For its screen size” for a ${boxForScreen.label.toLowerCase()}.`}
              error={err('parcel_size')}
            >
              <select {...register('parcel_size')}>
                <option value="">For its screen size</option>
                {PARCEL_SIZE_KEYS.map((key) => (
                  <option key={key} value={key}>
                    {PARCEL_SIZES[key].label}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField
              label="Packed weight (oz)"
              hint={`Leave empty for ${box.weightOz} oz (${Math.round(box.weightOz / 16)} lb), usual for this box with a charger.`}
              error={err('parcel_weight_oz')}
            >
              <input
                type="number"
                inputMode="numeric"
                min={16}
                max={400}
                step={1}
                {...register('parcel_weight_oz')}
              />
            </FormField>
            <p className="text-slate-700 text-sm sm:col-span-2">
              Ships from (kept private: the carrier prints it on the label, buyers never see it)
            </p>
            <FormField label="Sender name" error={addressErr('name')}>
              <input type="text" autoComplete="name" {...register('ship_from.name')} />
            </FormField>
            <FormField label="Sender phone (optional)" error={addressErr('phone')}>
              <input type="tel" autoComplete="tel" {...register('ship_from.phone')} />
            </FormField>
            <FormField label="Street address" error={addressErr('street1')} className="sm:col-span-2">
              <input type="text" autoComplete="address-line1" {...register('ship_from.street1')} />
            </FormField>
            <FormField
              label="Apartment, suite (optional)"
              error={addressErr('street2')}
              className="sm:col-span-2"
            >
              <input type="text" autoComplete="address-line2" {...register('ship_from.street2')} />
            </FormField>
            <FormField label="City" error={addressErr('city')}>
              <input type="text" autoComplete="address-level2" {...register('ship_from.city')} />
            </FormField>
            <FormField label="State" hint="Two letters, like CA" error={addressErr('state')}>
              <input
                type="text"
                autoComplete="address-level1"
                maxLength={2}
                {...register('ship_from.state')}
              />
            </FormField>
            <FormField label="ZIP code" error={addressErr('zip')}>
              <input
                type="text"
                inputMode="numeric"
                autoComplete="postal-code"
                {...register('ship_from.zip')}
              />
            </FormField>
          </>
        ) : null}
      </FormSection>

      <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <FormField
          label="Description"
          hint="At least 20 characters: what works, what is worn, what comes with it."
          error={err('description')}
        >
          <textarea rows={6} className="py-2" {...register('description')} />
        </FormField>
        {batteryWarning ? (
          <p
            role="status"
            data-testid="battery-mismatch"
            className="mt-2 flex items-start gap-2 rounded-lg bg-amber-50 p-2 text-amber-900 text-sm"
          >
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {batteryWarning}
          </p>
        ) : null}
      </section>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        {photos.isUploading ? (
          <p className="text-slate-600 text-sm" role="status">
            Photos are still uploading…
          </p>
        ) : null}
        <Button
          type="submit"
          size="lg"
          disabled={isSubmitting || savingAfterUploads}
          aria-busy={isSubmitting || savingAfterUploads}
          className="w-full sm:w-auto"
        >
          {savingAfterUploads ? 'Saving when the photos are up…' : isSubmitting ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  )
}

function ConditionChoice({
  error,
  register,
}: {
  error?: string
  register: ReturnType<ReturnType<typeof useForm<ProductFormInput>>['register']>
}) {
  const errorId = useId()
  return (
    <fieldset className="sm:col-span-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 font-medium text-slate-800 text-sm">Condition</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {Condition.options.map((condition) => (
          <label
            key={condition}
            className={cn(
              'flex cursor-pointer gap-3 rounded-lg border bg-white p-3 has-checked:border-accent has-checked:bg-accent-soft/40',
              'has-focus-visible:outline-3 has-focus-visible:outline-accent has-focus-visible:outline-offset-2',
              error ? 'border-red-600' : 'border-slate-300',
            )}
          >
            <input
              type="radio"
              value={condition}
              aria-invalid={error ? true : undefined}
              className="mt-1 size-4 accent-accent focus-visible:outline-none"
              {...register}
            />
            <span>
              <span className="block font-semibold text-slate-900 text-sm">{condition}</span>
              <span className="mt-0.5 block text-slate-600 text-xs">{CONDITION_DEFINITIONS[condition]}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-red-700 text-sm">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

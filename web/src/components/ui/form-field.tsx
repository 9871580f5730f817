import { cloneElement, type ReactElement, type ReactNode, useId } from 'react'
import { cn } from '../../components/ui/cn'

export const inputClasses =
  'block min-h-11 w-full rounded-lg border px-3 text-base shadow-sm focus-visible:border-accent sm:text-sm'

type ControlProps = {
  id?: string
  readOnly?: boolean
  'aria-invalid'?: boolean
  'aria-describedby'?: string
  className?: string
}

type FormFieldProps = {
  label: string
  /** A short hint under the label. */
  hint?: ReactNode
  error?: string
  className?: string
  /** The one input, select or textarea; it gets the id, the error state and the descriptions. */
  children: ReactElement<ControlProps>
}

/** A labelled control with its hint and, under it, its own message. */
export function FormField({ label, hint, error, className, children }: FormFieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block font-medium text-slate-800 text-sm">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="mb-1 text-slate-600 text-xs">
          {hint}
        </p>
      ) : null}
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
        className: cn(
          inputClasses,
          error ? 'border-red-600' : 'border-slate-300',
          // A select counts as :read-only in CSS, so the read-only look goes by the prop instead.
          children.props.readOnly ? 'bg-slate-100 text-slate-700' : 'bg-white text-slate-900',
          children.props.className,
        ),
      })}
      {error ? (
        <p id={errorId} className="mt-1 text-red-700 text-sm">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A titled group of fields. */
export function FormSection({
  title,
  description,
  children,
}: {
  title: string
  description?: string
  children: ReactNode
}) {
  const id = useId()
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id={id} className="font-semibold text-lg text-slate-900">
        {title}
      </h2>
      {description ? <p className="mt-1 text-slate-600 text-sm">{description}</p> : null}
      <div className="mt-4 grid gap-4 sm:grid-cols-2">{children}</div>
    </section>
  )
}

import { type ComponentProps, type ReactNode, useId } from 'react'
import { cn } from '../../components/ui/cn'

type TextFieldProps = ComponentProps<'input'> & {
  label: ReactNode
  /** The field's own message, shown under it and read out with it. */
  error?: string
  hint?: ReactNode
}

/** A labelled input with its message underneath; read-only fields look like text, not like inputs. */
export function TextField({ label, error, hint, className, id, readOnly, ref, ...rest }: TextFieldProps) {
  const autoId = useId()
  const inputId = id ?? autoId
  const hintId = hint ? `${inputId}-hint` : undefined
  const errorId = error ? `${inputId}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={inputId} className="block font-medium text-slate-800 text-sm">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(
          'block min-h-11 w-full rounded-lg border px-3 py-2 text-base text-slate-900 placeholder:text-slate-500',
          readOnly
            ? 'border-slate-200 bg-slate-100 text-slate-700'
            : 'border-slate-400 bg-white hover:border-slate-500',
          error ? 'border-red-700' : null,
        )}
        {...rest}
      />
      {hint ? (
        <p id={hintId} className="text-slate-600 text-sm">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="font-medium text-red-700 text-sm">
          {error}
        </p>
      ) : null}
    </div>
  )
}

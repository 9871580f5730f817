import type { InputHTMLAttributes, ReactNode } from 'react'
import { useId } from 'react'
import { cn } from '../../components/ui/cn'

export const inputClasses =
  'block min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 ' +
  'focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30'

/** A labelled field with its message under it; `children` renders the control with the given ids. */
export function AuthField({
  label,
  error,
  children,
}: {
  label: string
  error?: string
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block font-medium text-slate-800 text-sm">
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': error ? errorId : undefined })}
      {error ? (
        <p id={errorId} className="text-red-700 text-sm">
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function fieldInputClasses(hasError: boolean) {
  return cn(inputClasses, hasError ? 'border-red-600' : 'border-slate-300')
}

export type AuthInputProps = InputHTMLAttributes<HTMLInputElement>

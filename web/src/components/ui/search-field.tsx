import { Search } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { cn } from './cn'

type SearchFieldProps = {
  label: string
  /** The search in force (from the URL); the field follows it when it changes from outside. */
  value: string
  /** Called a short moment after typing stops, and at once on Enter, with the trimmed text. */
  onSearch: (q: string) => void
  delayMs?: number
  placeholder?: string
  maxLength?: number
  className?: string
}

/** A labelled search box that searches as you type, without a request per keystroke. */
export function SearchField({
  label,
  value,
  onSearch,
  delayMs = 300,
  placeholder,
  maxLength,
  className,
}: SearchFieldProps) {
  const id = useId()
  const [text, setText] = useState(value)
  const onSearchRef = useRef(onSearch)
  onSearchRef.current = onSearch
  const valueRef = useRef(value)
  valueRef.current = value

  useEffect(() => setText(value), [value])

  useEffect(() => {
    if (text.trim() === valueRef.current) return
    const timer = window.setTimeout(() => onSearchRef.current(text.trim()), delayMs)
    return () => window.clearTimeout(timer)
  }, [text, delayMs])

  return (
    <search className={cn('block', className)}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          onSearch(text.trim())
        }}
      >
        <label htmlFor={id} className="mb-1.5 block font-medium text-slate-800 text-sm">
          {label}
        </label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-5 text-slate-500"
          />
          <input
            id={id}
            type="search"
            value={text}
            maxLength={maxLength}
            placeholder={placeholder}
            onChange={(event) => setText(event.target.value)}
            className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30"
          />
        </div>
      </form>
    </search>
  )
}

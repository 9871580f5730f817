import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { paths } from '#contract/pages'
import { cn } from '../../components/ui/cn'
import { SpriteIcon } from '../../components/ui/sprite-icon'
import { useLocation, useNavigate } from '../../lib/bindings'
import { useOnChange, useTypedBeforeLive } from '../../lib/server-fields'
import { type Suggestion, useSuggestions } from './search-api'

const TYPING_DELAY_MS = 200

/** The address a search or a chosen suggestion lands on. */
export function searchHref(q: string, suggestion?: Suggestion): string {
  const params = new URLSearchParams()
  if (suggestion?.kind === 'brand' && suggestion.brandId) params.set('brand', suggestion.brandId)
  else if (suggestion) params.set('q', suggestion.label)
  else if (q.trim()) params.set('q', q.trim())
  return paths.browse(params)
}

/** The text typed, passed on once typing pauses, so suggestions are not fetched per keystroke. */
function useDebounced(value: string, delayMs: number) {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs)
    return () => window.clearTimeout(timer)
  }, [value, delayMs])
  return debounced
}

/**
 * The search box in the navbar, on every page: a combobox whose list suggests brands and models as
 * you type. Arrow keys move through the suggestions, Enter opens one (or searches the text), Escape
 * closes the list. Searching lands on /productcard?q=….
 */
export function NavbarSearch({ className }: { className?: string }) {
  const id = useId()
  const listId = `${id}-list`
  const navigate = useNavigate()
  const location = useLocation()
  // On the results page the box shows the search in force; elsewhere it starts empty.
  const searchInForce =
    location.pathname === paths.browse() ? (new URLSearchParams(location.search).get('q') ?? '') : ''
  const [text, setText] = useState(searchInForce)
  const [isOpen, setIsOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const inputRef = useRef<HTMLInputElement>(null)
  const typed = useDebounced(text, TYPING_DELAY_MS)
  const { suggestions } = useSuggestions(isOpen ? typed : '')
  const isListShown = isOpen && text.trim().length >= 2 && suggestions.length > 0

  // A new address sets the box again; what was typed before the page went live stays (taken below).
  useOnChange(location.pathname + location.search, () => {
    setText(searchInForce)
    setIsOpen(false)
  })
  // Typing there still, the visitor gets the suggestions for what they typed.
  useTypedBeforeLive(inputRef, text, (value, box) => {
    setText(value)
    if (document.activeElement === box) setIsOpen(true)
  })

  const listKey = suggestions.map((s) => `${s.kind}:${s.label}`).join('\n')
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list starts with nothing picked
  useEffect(() => setActive(-1), [listKey])

  function go(suggestion?: Suggestion) {
    setIsOpen(false)
    navigate(searchHref(text, suggestion))
    inputRef.current?.blur()
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!isListShown) {
        setIsOpen(true)
        return
      }
      const last = suggestions.length - 1
      setActive((i) => (event.key === 'ArrowDown' ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1))
    } else if (event.key === 'Escape') {
      if (isListShown) {
        event.preventDefault()
        setIsOpen(false)
      } else if (text) {
        setText('')
      }
    } else if (event.key === 'Enter' && isListShown && active >= 0) {
      event.preventDefault()
      go(suggestions[active])
    }
  }

  const activeId =
    isListShown && active >= 0 && active < suggestions.length ? `${id}-opt-${active}` : undefined

  return (
    <search className={cn('relative block', className)}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          go()
        }}
      >
        <label htmlFor={`${id}-input`} className="sr-only">
          Search laptops
        </label>
        <SpriteIcon
          name="search"
          className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-5 text-slate-500"
        />
        <input
          ref={inputRef}
          id={`${id}-input`}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={isListShown}
          aria-controls={listId}
          aria-activedescendant={activeId}
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          placeholder="Search brands and models"
          value={text}
          onChange={(event) => {
            setText(event.target.value)
            setIsOpen(true)
          }}
          onFocus={() => setIsOpen(true)}
          // A click on a suggestion lands before the blur closes the list (onMouseDown below).
          onBlur={() => setIsOpen(false)}
          onKeyDown={onKeyDown}
          className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-500 focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 md:text-sm"
        />
        <button type="submit" className="sr-only">
          Search
        </button>
      </form>
      <div
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        hidden={!isListShown}
        className="absolute inset-x-0 top-full z-40 mt-1 max-h-80 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
      >
        {isListShown
          ? suggestions.map((suggestion, i) => (
              <div
                key={`${suggestion.kind}:${suggestion.label}`}
                tabIndex={-1}
                id={`${id}-opt-${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(event) => {
                  event.preventDefault()
                  go(suggestion)
                }}
                onMouseEnter={() => setActive(i)}
                className={cn(
                  'flex min-h-11 cursor-pointer items-center justify-between gap-3 px-3 py-2 text-slate-900 text-sm',
                  i === active && 'bg-accent-soft',
                )}
              >
                <span className="truncate">{suggestion.label}</span>
                <span className="shrink-0 text-slate-600 text-xs">
                  {suggestion.kind === 'brand' ? 'Brand' : 'Model'}
                </span>
              </div>
            ))
          : null}
      </div>
    </search>
  )
}

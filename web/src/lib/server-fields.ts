import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react'

// A field of a server-rendered page can be typed into (or chosen from) before React takes the page over. Hydrating,
// React keeps the element as it is, value included, but its next render sets the value back to the component's state:
// what the visitor typed would go. These hooks let a component take such a value once, and leave its first render
// alone when it follows something else afterwards.

/**
 * Once, when React first holds the field in `ref`: when it holds a value other than `rendered` (what the component
 * rendered into it), `take` gets that value, before anything renders again. A field React rendered itself holds what
 * it was given, so nothing happens.
 */
export function useTypedBeforeLive(
  ref: RefObject<HTMLInputElement | HTMLSelectElement | null>,
  rendered: string,
  take: (value: string, field: HTMLInputElement | HTMLSelectElement) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the field is first React's
  useLayoutEffect(() => {
    const field = ref.current
    if (field && field.value !== rendered) take(field.value, field)
  }, [])
}

/**
 * Calls `onChange` when `value` changes after the first render, not on it: the first render already started from it
 * (and may have taken what was typed before the page went live, above).
 */
export function useOnChange<T>(value: T, onChange: (value: T) => void): void {
  const seen = useRef(value)
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a new value only
  useEffect(() => {
    if (Object.is(seen.current, value)) return
    seen.current = value
    onChange(value)
  }, [value])
}

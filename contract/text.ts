import type { z } from 'zod'

// Single-line text that other people see (a listing's name, a location, a person's name, and the email
// subjects made from them): one line, something visible, and no characters that reorder what follows.

/** Bidirectional overrides, embeddings, isolates and marks: they can make a name read backwards. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g
/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u
/** A character that shows: not a space, a format character (U+200B…), a combining mark alone, or a blank glyph. */
const VISIBLE = /[^\s\p{Cf}\p{Z}\p{Cc}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/u

/** The text without bidirectional controls. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '')
}

/** True when the text holds a control character or a line break of any kind. */
export function hasLineBreakOrControl(text: string): boolean {
  return LINE_BREAKING.test(text)
}

/** True when at least one character of the text shows. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text)
}

/**
 * A single-line field: the field's own checks (trim, lengths), then bidirectional controls are removed, and
 * control characters and a value with no visible character are refused. The type stays a string (forms use it).
 */
export function singleLine(schema: z.ZodString, label: string) {
  return schema
    .overwrite(withoutBidiControls)
    .refine((v) => !hasLineBreakOrControl(v), `${label} must be one line, without control characters`)
    .refine(hasVisibleCharacter, `${label} must have a visible character`)
}

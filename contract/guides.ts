/** The guides: short pages on judging, buying and selling a used laptop, each at `/guides/{slug}`. */
export const GUIDES = [
  {
    slug: 'battery-health',
    title: 'Reading battery health',
    summary:
      'What "battery health" and cycle count mean, how to read them on Windows, macOS and Linux, and what is good.',
  },
  {
    slug: 'handover-checklist',
    title: 'What to check at handover',
    summary:
      'A ten-minute check of a used laptop before you take it home: the serial, the screen, the keys, the locks.',
  },
  {
    slug: 'pricing',
    title: 'Pricing from the price guide',
    summary:
      'How the price guide is worked out from real sales, and how to use it to price a laptop or judge an offer.',
  },
  {
    slug: 'wiping-a-laptop',
    title: 'Wiping a laptop before selling',
    summary:
      'Back up, sign out of everything that locks the laptop to you, and erase it so the next owner starts clean.',
  },
] as const

export type GuideSlug = (typeof GUIDES)[number]['slug']

export function findGuide(slug: string | undefined) {
  return GUIDES.find((g) => g.slug === slug)
}

// The home page slideshow pictures and the site's two static illustrations (the listing
// placeholder and the 404 page), drawn with the same laptop renderer as the demo photos.
// scripts/make-images.ts writes them into web/public/images.

import { DEMO_BRANDS } from './brands'
import { darken, fmt, lighten, mix, polygon, seededRandom } from './geometry'
import { drawLaptop, drawWallpaper, type LaptopLook, type LaptopPose, type Placement } from './laptop-art'
import { PALETTES } from './products'

export const HERO_SIZE = { width: 1600, height: 700 } as const

type Prop =
  | { kind: 'plant'; x: number; scale: number; pot: string }
  | { kind: 'mug'; x: number; scale: number; colour: string }
  | { kind: 'notebook'; x: number; scale: number; colour: string }
  | { kind: 'phone'; x: number; scale: number }
  | { kind: 'lamp'; x: number; scale: number; colour: string }

type HeroLaptop = { look: LaptopLook; pose: LaptopPose; place: Placement }

export type HeroScene = {
  wall: readonly [string, string]
  desk: readonly [string, string]
  /** Height of the desk's front edge line, from the top. */
  deskY: number
  frame?: { x: number; y: number; w: number; h: number; palette: keyof typeof PALETTES }
  shelf?: { x: number; y: number; w: number }
  back: Prop[]
  laptops: HeroLaptop[]
  front: Prop[]
}

function brandMark(slug: string) {
  const brand = DEMO_BRANDS.find((b) => b.slug === slug)
  if (!brand) throw new Error(`Unknown brand ${slug}`)
  return brand.mark
}

function look(
  slug: string,
  chassis: string,
  style: LaptopLook['wallpaper']['style'],
  palette: keyof typeof PALETTES,
  extra: Partial<LaptopLook> = {},
): LaptopLook {
  return {
    mark: brandMark(slug),
    chassis,
    keys: '#1b1d21',
    os: slug === 'apple' ? 'mac' : 'windows',
    wallpaper: { style, palette: PALETTES[palette], seed: slug.length * 7919 },
    ...extra,
  }
}

export const HERO_SCENES: HeroScene[] = [
  {
    wall: ['#f6efe6', '#eadccb'],
    desk: ['#c99a6b', '#a77548'],
    deskY: 520,
    frame: { x: 330, y: 110, w: 190, h: 240, palette: 'sunset' },
    back: [{ kind: 'plant', x: 170, scale: 1.05, pot: '#f3f1ec' }],
    laptops: [
      {
        look: look('apple', '#c9cdd3', 'waves', 'dusk'),
        pose: { open: true, yaw: 28, pitch: 14, tilt: 14 },
        place: { cx: 1060, cy: 400, width: 700, height: 440 },
      },
    ],
    front: [{ kind: 'mug', x: 1450, scale: 1, colour: '#0f766e' }],
  },
  {
    wall: ['#eef2f6', '#dce4ec'],
    desk: ['#f4f1ec', '#ddd6cc'],
    deskY: 530,
    shelf: { x: 980, y: 170, w: 420 },
    back: [{ kind: 'lamp', x: 1440, scale: 1.05, colour: '#1f2937' }],
    laptops: [
      {
        look: look('lenovo', '#27292d', 'ridges', 'forest', { keys: '#15161a' }),
        pose: { open: true, yaw: -26, pitch: 14, tilt: 14 },
        place: { cx: 1030, cy: 410, width: 660, height: 420 },
      },
    ],
    front: [{ kind: 'notebook', x: 560, scale: 1, colour: '#0f766e' }],
  },
  {
    wall: ['#e7efe9', '#d3e2d8'],
    desk: ['#8a5a3c', '#6b4329'],
    deskY: 520,
    frame: { x: 1090, y: 110, w: 200, h: 150, palette: 'aurora' },
    back: [{ kind: 'plant', x: 1460, scale: 1.1, pot: '#c2703d' }],
    laptops: [
      {
        look: look('asus', '#2f3136', 'aurora', 'violet', { glow: '#ff2e63', keys: '#141518' }),
        pose: { open: true, yaw: 24, pitch: 15, tilt: 14 },
        place: { cx: 920, cy: 400, width: 680, height: 430 },
      },
    ],
    front: [
      { kind: 'phone', x: 520, scale: 1 },
      { kind: 'mug', x: 1330, scale: 0.9, colour: '#f3f1ec' },
    ],
  },
  {
    wall: ['#f5eef3', '#e8dbe4'],
    desk: ['#e3cfb6', '#c9ae8d'],
    deskY: 525,
    frame: { x: 190, y: 130, w: 170, h: 220, palette: 'teal' },
    back: [],
    laptops: [
      {
        look: look('microsoft', '#b7c3b7', 'bloom', 'rose', { keys: '#2a2d31' }),
        pose: { open: false, yaw: -20, pitch: 30 },
        place: { cx: 700, cy: 565, width: 420, height: 120 },
      },
      {
        look: look('dell', '#d6d9dd', 'bloom', 'nordic'),
        pose: { open: true, yaw: -24, pitch: 14, tilt: 14 },
        place: { cx: 1110, cy: 395, width: 640, height: 410 },
      },
    ],
    front: [{ kind: 'plant', x: 1480, scale: 0.9, pot: '#f3f1ec' }],
  },
]

export function drawHeroSvg(scene: HeroScene, index: number): string {
  const { width, height } = HERO_SIZE
  const defs: string[] = []
  const out: string[] = []
  const rnd = seededRandom(`hero-${index}`)
  defs.push(
    `<linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.wall[0]}"/><stop offset="1" stop-color="${scene.wall[1]}"/></linearGradient>`,
    `<linearGradient id="desk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.desk[0]}"/><stop offset="1" stop-color="${scene.desk[1]}"/></linearGradient>`,
    `<radialGradient id="light" cx="0.68" cy="0.25" r="0.7"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>`,
    `<filter id="blur" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="14"/></filter>`,
    `<filter id="blur-soft" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="4"/></filter>`,
  )
  out.push(`<rect width="${width}" height="${height}" fill="url(#wall)"/>`)
  // Window light falling across the wall.
  out.push(
    `<polygon points="820,0 1060,0 760,${scene.deskY} 520,${scene.deskY}" fill="#ffffff" opacity="0.18"/>`,
    `<polygon points="1110,0 1230,0 930,${scene.deskY} 810,${scene.deskY}" fill="#ffffff" opacity="0.12"/>`,
  )
  out.push(`<rect width="${width}" height="${height}" fill="url(#light)"/>`)
  if (scene.frame) out.push(drawFrame(scene.frame, defs, rnd))
  if (scene.shelf) out.push(drawShelf(scene.shelf, rnd))

  // Desk: the top surface, a few grain lines, and the front edge.
  const y = scene.deskY
  out.push(`<rect y="${y}" width="${width}" height="${height - y}" fill="url(#desk)"/>`)
  for (let i = 0; i < 9; i++) {
    const gy = y + 12 + rnd() * (height - y - 40)
    const x0 = rnd() * 600 - 200
    out.push(
      `<path d="M${fmt(x0)} ${fmt(gy)} C ${fmt(x0 + 400)} ${fmt(gy - 6)}, ${fmt(x0 + 900)} ${fmt(gy + 8)}, ${fmt(x0 + 1500 + rnd() * 400)} ${fmt(gy + 2)}" fill="none" stroke="${darken(scene.desk[1], 0.25)}" stroke-width="${fmt(1 + rnd() * 2)}" opacity="${fmt(0.12 + rnd() * 0.12)}"/>`,
    )
  }
  out.push(
    `<rect y="${y}" width="${width}" height="3" fill="${lighten(scene.desk[0], 0.35)}" opacity="0.7"/>`,
  )

  for (const prop of scene.back) out.push(drawProp(prop, y - 0, defs, `b${index}`))

  scene.laptops.forEach((l, i) => {
    const drawn = drawLaptop(l.look, l.pose, l.place, `h${index}l${i}`)
    defs.push(drawn.defs)
    out.push(
      `<polygon points="${polygon(drawn.footprint.map(([x, fy]) => [x + 10, fy + 16]))}" fill="${darken(scene.desk[1], 0.6)}" opacity="0.35" filter="url(#blur)"/>`,
      `<polygon points="${polygon(drawn.footprint.map(([x, fy]) => [x, fy + 4]))}" fill="${darken(scene.desk[1], 0.7)}" opacity="0.45" filter="url(#blur-soft)"/>`,
      drawn.body,
    )
  })
  for (const prop of scene.front) out.push(drawProp(prop, y + 110, defs, `f${index}`))

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs.join('')}</defs>${out.join('')}</svg>`
  )
}

function drawFrame(f: NonNullable<HeroScene['frame']>, defs: string[], rnd: () => number): string {
  const inner: string[] = []
  const art = drawWallpaper('ridges', PALETTES[f.palette], rnd, `frame-${f.x}`, inner)
  defs.push(...inner)
  const k = Math.max((f.w - 24) / 1600, (f.h - 24) / 1000)
  return (
    `<rect x="${f.x + 6}" y="${f.y + 10}" width="${f.w}" height="${f.h}" fill="#000" opacity="0.12" filter="url(#blur-soft)"/>` +
    `<rect x="${f.x}" y="${f.y}" width="${f.w}" height="${f.h}" fill="#2b2620"/>` +
    `<rect x="${f.x + 8}" y="${f.y + 8}" width="${f.w - 16}" height="${f.h - 16}" fill="#fbfaf7"/>` +
    `<svg x="${f.x + 22}" y="${f.y + 22}" width="${f.w - 44}" height="${f.h - 44}" viewBox="0 0 ${fmt((f.w - 44) / k)} ${fmt((f.h - 44) / k)}" preserveAspectRatio="xMidYMid slice">${art}</svg>`
  )
}

function drawShelf(s: NonNullable<HeroScene['shelf']>, rnd: () => number): string {
  const colours = ['#0f766e', '#b45309', '#1e3a8a', '#9f1239', '#4b5563', '#ca8a04', '#166534']
  let x = s.x + 20
  let out = ''
  while (x < s.x + s.w * 0.62) {
    const w = 16 + rnd() * 16
    const h = 70 + rnd() * 40
    const c = colours[Math.floor(rnd() * colours.length)] as string
    out += `<rect x="${fmt(x)}" y="${fmt(s.y - h)}" width="${fmt(w)}" height="${fmt(h)}" rx="2" fill="${c}"/><rect x="${fmt(x + 3)}" y="${fmt(s.y - h + 12)}" width="${fmt(w - 6)}" height="4" fill="#fff" opacity="0.35"/>`
    x += w + 2
  }
  // A small pot on the shelf.
  const px = s.x + s.w * 0.8
  out += `<path d="M${px - 26} ${s.y - 52} h52 l-7 52 h-38z" fill="#f3f1ec"/>`
  for (let i = 0; i < 6; i++) {
    const a = -70 + i * 28
    out += `<ellipse cx="${px}" cy="${s.y - 80}" rx="10" ry="30" transform="rotate(${a} ${px} ${s.y - 52})" fill="${i % 2 ? '#3f9a5f' : '#2f7d4f'}"/>`
  }
  out += `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="12" rx="2" fill="#8b6a4f"/><rect x="${s.x}" y="${s.y + 12}" width="${s.w}" height="10" fill="#000" opacity="0.08" filter="url(#blur-soft)"/>`
  return out
}

function drawProp(prop: Prop, baseY: number, defs: string[], id: string): string {
  const k = prop.scale
  const g = (body: string) => `<g transform="translate(${prop.x} ${baseY}) scale(${k})">${body}</g>`
  const shadow = (w: number) =>
    `<ellipse cx="6" cy="2" rx="${w}" ry="${w * 0.18}" fill="#000" opacity="0.22" filter="url(#blur-soft)"/>`
  switch (prop.kind) {
    case 'plant': {
      const leaves: string[] = []
      const angles = [-62, -40, -18, 0, 16, 36, 58, -28, 26]
      angles.forEach((a, i) => {
        const len = 150 + ((i * 37) % 60)
        const c = ['#2f7d4f', '#3f9a5f', '#5cb874', '#2a6f45'][i % 4]
        leaves.push(
          `<path d="M0 0 C ${fmt(len * 0.3)} ${fmt(-len * 0.3)}, ${fmt(len * 0.25)} ${fmt(-len * 0.8)}, 0 ${-len} C ${fmt(-len * 0.25)} ${fmt(-len * 0.8)}, ${fmt(-len * 0.3)} ${fmt(-len * 0.3)}, 0 0Z" transform="translate(0 -110) rotate(${a})" fill="${c}"/>`,
          `<path d="M0 0 L0 ${-len + 10}" transform="translate(0 -110) rotate(${a})" stroke="#1e5a37" stroke-width="2" opacity="0.5"/>`,
        )
      })
      defs.push(
        `<linearGradient id="${id}-pot" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${lighten(prop.pot, 0.1)}"/><stop offset="1" stop-color="${darken(prop.pot, 0.15)}"/></linearGradient>`,
      )
      return g(
        shadow(70) +
          leaves.join('') +
          `<path d="M-62 -118 h124 l-14 118 h-96z" fill="url(#${id}-pot)"/><rect x="-66" y="-124" width="132" height="14" rx="4" fill="${darken(prop.pot, 0.05)}"/>`,
      )
    }
    case 'mug': {
      const c = prop.colour
      return g(
        shadow(48) +
          `<path d="M32 -78 c30 0 34 46 4 52" fill="none" stroke="${darken(c, 0.1)}" stroke-width="11"/>` +
          `<path d="M-40 -86 h80 v70 a14 14 0 0 1 -14 16 h-52 a14 14 0 0 1 -14 -16z" fill="${c}"/>` +
          `<ellipse cx="0" cy="-86" rx="40" ry="9" fill="${darken(c, 0.2)}"/><ellipse cx="0" cy="-85" rx="34" ry="6.5" fill="#4a2c1a"/>` +
          `<path d="M-40 -80 h12 v62 a10 10 0 0 1 -12 -4z" fill="#fff" opacity="0.18"/>` +
          `<path d="M-10 -100 c-14 -16 14 -26 0 -44 M12 -104 c-14 -16 14 -26 0 -44" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity="0.55"/>`,
      )
    }
    case 'notebook': {
      const c = prop.colour
      const cover = [
        [-150, 0],
        [110, 0],
        [150, -60],
        [-110, -60],
      ] as const
      return g(
        `<polygon points="${polygon(cover.map(([x, y]) => [x + 8, y + 8]))}" fill="#000" opacity="0.2" filter="url(#blur-soft)"/>` +
          `<polygon points="${polygon(cover.map(([x, y]) => [x, y + 6]))}" fill="#f5f2ea"/>` +
          `<polygon points="${polygon(cover)}" fill="${c}"/>` +
          `<polygon points="-20,0 -6,0 34,-60 20,-60" fill="${darken(c, 0.25)}"/>` +
          `<g transform="rotate(-12 0 -30)"><rect x="-120" y="-24" width="190" height="9" rx="4.5" fill="#1f2937"/><rect x="62" y="-24" width="14" height="9" rx="2" fill="#d4af37"/></g>`,
      )
    }
    case 'phone':
      return g(
        `<polygon points="-70,0 60,0 80,-44 -50,-44" fill="#000" opacity="0.25" transform="translate(8 8)" filter="url(#blur-soft)"/>` +
          `<polygon points="-70,0 60,0 80,-44 -50,-44" fill="#1f2229"/>` +
          `<polygon points="-62,-5 54,-5 71,-39 -45,-39" fill="${mix('#1e3a8a', '#0f766e', 0.5)}"/>` +
          `<polygon points="-62,-5 -20,-5 -3,-39 -45,-39" fill="#fff" opacity="0.12"/>`,
      )
    case 'lamp': {
      const c = prop.colour
      return g(
        shadow(60) +
          `<ellipse cx="0" cy="-6" rx="60" ry="12" fill="${c}"/>` +
          `<path d="M0 -10 L-40 -200 L40 -330" fill="none" stroke="${c}" stroke-width="10" stroke-linejoin="round"/>` +
          `<circle cx="-40" cy="-200" r="10" fill="${lighten(c, 0.2)}"/>` +
          `<path d="M10 -350 L100 -300 L60 -250 L-10 -300z" fill="${c}"/>` +
          `<ellipse cx="80" cy="-275" rx="30" ry="10" transform="rotate(40 80 -275)" fill="#fff7d6" opacity="0.9"/>`,
      )
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Static illustrations
// ---------------------------------------------------------------------------------------------

const NEUTRAL_MARK = { name: '', box: { x: 0, y: 0, w: 24, h: 24 } }

/** Shown when a listing has no picture: a plain laptop with a picture glyph on its screen. */
export function drawPlaceholderSvg(): string {
  const width = 640
  const height = 480
  const screen =
    `<rect width="1600" height="1000" fill="#eef1f4"/>` +
    `<g transform="translate(800 500)" fill="none" stroke="#9aa4b2" stroke-width="26" stroke-linejoin="round" stroke-linecap="round">` +
    `<rect x="-190" y="-150" width="380" height="300" rx="36"/>` +
    `<path d="M-190 110 L-70 -10 L40 100 L100 40 L190 130"/>` +
    `<circle cx="90" cy="-60" r="34"/></g>`
  const drawn = drawLaptop(
    {
      mark: NEUTRAL_MARK,
      chassis: '#cfd5dc',
      keys: '#9aa4b2',
      os: 'windows',
      wallpaper: { style: 'waves', palette: PALETTES.sky, seed: 1 },
      screen,
    },
    { open: true, yaw: 0, pitch: 24, tilt: 12 },
    { cx: width / 2, cy: height / 2 + 4, width: 470, height: 360 },
    'ph',
  )
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
    `<title>No photo yet</title>` +
    `<defs>${drawn.defs}</defs>` +
    `<rect width="${width}" height="${height}" fill="#f4f6f8"/>` +
    `<polygon points="${polygon(drawn.footprint.map(([x, y]) => [x, y + 5]))}" fill="#c2cad3" opacity="0.6"/>` +
    drawn.body +
    `</svg>`
  )
}

/** The 404 page: a puzzled laptop that cannot find the page, with a magnifying glass. */
export function drawNotFoundSvg(): string {
  const width = 800
  const height = 600
  const accent = '#0f766e'
  const screen =
    `<rect width="1600" height="1000" fill="#f0fdfa"/>` +
    `<rect width="1600" height="70" fill="#ccfbf1"/>` +
    `<circle cx="60" cy="35" r="14" fill="#f87171"/><circle cx="105" cy="35" r="14" fill="#fbbf24"/><circle cx="150" cy="35" r="14" fill="#34d399"/>` +
    `<rect x="240" y="20" width="900" height="30" rx="15" fill="#ffffff"/>` +
    `<text x="800" y="520" text-anchor="middle" font-family="Segoe UI, Helvetica Neue, Arial, sans-serif" font-size="330" font-weight="800" fill="${accent}">404</text>` +
    // A puzzled face under the number.
    `<circle cx="690" cy="700" r="22" fill="#134e4a"/><circle cx="910" cy="700" r="22" fill="#134e4a"/>` +
    `<path d="M700 840 q100 -60 200 0" fill="none" stroke="#134e4a" stroke-width="22" stroke-linecap="round"/>`
  const drawn = drawLaptop(
    {
      mark: NEUTRAL_MARK,
      chassis: '#c9cdd3',
      keys: '#1b1d21',
      os: 'windows',
      wallpaper: { style: 'waves', palette: PALETTES.teal, seed: 1 },
      screen,
    },
    { open: true, yaw: 0, pitch: 24, tilt: 12 },
    { cx: 380, cy: 300, width: 520, height: 400 },
    'nf',
  )
  const question = (x: number, y: number, size: number, rotate: number, opacity: number) =>
    `<text x="${x}" y="${y}" transform="rotate(${rotate} ${x} ${y})" font-family="Segoe UI, Helvetica Neue, Arial, sans-serif" font-size="${size}" font-weight="700" fill="${accent}" opacity="${opacity}">?</text>`
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
    `<title>Page not found</title>` +
    `<defs>${drawn.defs}</defs>` +
    `<circle cx="400" cy="300" r="270" fill="#ccfbf1" opacity="0.7"/>` +
    `<circle cx="640" cy="120" r="46" fill="#99f6e4" opacity="0.6"/><circle cx="130" cy="470" r="30" fill="#99f6e4" opacity="0.6"/>` +
    `<ellipse cx="380" cy="520" rx="300" ry="22" fill="#134e4a" opacity="0.12"/>` +
    drawn.body +
    question(120, 170, 90, -14, 0.8) +
    question(660, 250, 64, 12, 0.6) +
    question(560, 110, 48, -6, 0.45) +
    // Magnifying glass leaning on the laptop.
    `<g transform="translate(640 430) rotate(-35)">` +
    `<rect x="-9" y="40" width="18" height="110" rx="9" fill="#134e4a"/>` +
    `<circle cx="0" cy="0" r="52" fill="#ffffff" fill-opacity="0.55" stroke="${accent}" stroke-width="14"/>` +
    `<path d="M-24 -18 a30 30 0 0 1 22 -16" fill="none" stroke="#ffffff" stroke-width="8" stroke-linecap="round"/></g>` +
    `</svg>`
  )
}

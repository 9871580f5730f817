// Draws a laptop as SVG: an open machine (screen with wallpaper and the brand's mark, bezel,
// keyboard deck) or a closed one (lid with the mark), seen from any angle. The body is modelled
// in 3D as flat slabs so each face is an affine map of a flat drawing.

import {
  Camera,
  convexHull,
  darken,
  fmt,
  lighten,
  luminance,
  mix,
  polygon,
  roundedRectOutline,
  seededRandom,
  type Vec2,
  type Vec3,
} from './geometry'

/** A brand's mark: a simple-icons path in its 24x24 box, or a text wordmark. */
export type BrandMark = {
  name: string
  path?: string
  /** Where the path's ink sits inside the 24x24 box. */
  box: { x: number; y: number; w: number; h: number }
  wordmark?: string
}

export const WALLPAPER_STYLES = ['waves', 'ridges', 'orbs', 'bloom', 'aurora'] as const
export type WallpaperStyle = (typeof WALLPAPER_STYLES)[number]
export type Palette = readonly [string, string, string, string]

export type LaptopLook = {
  mark: BrandMark
  /** Body colour. */
  chassis: string
  keys: string
  /** Keyboard backlight colour of gaming machines. */
  glow?: string
  os: 'mac' | 'windows'
  wallpaper: { style: WallpaperStyle; palette: Palette; seed: number }
  /** Replaces the whole screen: SVG content drawn in a 1600 x 1000 box. */
  screen?: string
}

export type LaptopPose = {
  open: boolean
  yaw: number
  pitch: number
  /** How far the open lid leans back from upright, in degrees. */
  tilt?: number
}

export type Placement = { cx: number; cy: number; width: number; height: number }

export type DrawnLaptop = {
  defs: string
  body: string
  /** The footprint on the table, on the canvas: for shadows. */
  footprint: Vec2[]
  /** Bounding box actually used. */
  bounds: { x: number; y: number; w: number; h: number }
}

// Model, in arbitrary units: a 16:10 display inside a 14-inch-like body.
const W = 760
const D = 504
const T = 19 // base thickness
const L = 10 // lid thickness
const R = 22 // corner radius
const DISPLAY = { x: 20, y: 20, w: 720, h: 450 }
const CONTENT = { w: 1600, h: 1000 }

type Slab = { origin: Vec3; u: Vec3; v: Vec3; n: Vec3; thickness: number }

function lidSlab(open: boolean, tilt: number): Slab {
  if (!open) {
    return { origin: [-W / 2, T + L, -D / 2], u: [1, 0, 0], v: [0, 0, 1], n: [0, -1, 0], thickness: L }
  }
  const b = (tilt * Math.PI) / 180
  const h = D
  return {
    origin: [-W / 2, T + h * Math.cos(b), -D / 2 - h * Math.sin(b)],
    u: [1, 0, 0],
    v: [0, -Math.cos(b), Math.sin(b)],
    // Towards the back of the lid.
    n: [0, -Math.sin(b), -Math.cos(b)],
    thickness: L,
  }
}

const deckSlab: Slab = {
  origin: [-W / 2, T, -D / 2],
  u: [1, 0, 0],
  v: [0, 0, 1],
  n: [0, -1, 0],
  thickness: T,
}

function at(slab: Slab, s: number, t: number, depth = 0): Vec3 {
  const { origin: o, u, v, n } = slab
  return [
    o[0] + u[0] * s + v[0] * t + n[0] * depth,
    o[1] + u[1] * s + v[1] * t + n[1] * depth,
    o[2] + u[2] * s + v[2] * t + n[2] * depth,
  ]
}

function slabOutline(slab: Slab, depth: number): Vec3[] {
  return roundedRectOutline(W, D, R, 4).map(([s, t]) => at(slab, s, t, depth))
}

function slabHull(cam: Camera, slab: Slab): Vec2[] {
  return convexHull([...slabOutline(slab, 0), ...slabOutline(slab, slab.thickness)].map((p) => cam.point(p)))
}

/** Draws the laptop fitted into `place`. `id` keeps gradient ids unique within one SVG. */
export function drawLaptop(look: LaptopLook, pose: LaptopPose, place: Placement, id: string): DrawnLaptop {
  const tilt = pose.tilt ?? 14
  const lid = lidSlab(pose.open, tilt)
  const probe = new Camera(pose.yaw, pose.pitch)
  const all = [...slabOutline(deckSlab, 0), ...slabOutline(deckSlab, T), ...slabOutline(lid, 0)].map((p) =>
    probe.point(p),
  )
  const xs = all.map((p) => p[0])
  const ys = all.map((p) => p[1])
  const minX = Math.min(...xs)
  const minY = Math.min(...ys)
  const bw = Math.max(...xs) - minX
  const bh = Math.max(...ys) - minY
  const k = Math.min(place.width / bw, place.height / bh)
  const origin: Vec2 = [place.cx - (minX + bw / 2) * k, place.cy - (minY + bh / 2) * k]
  const cam = probe.placed(k, origin)

  const defs: string[] = []
  const body: string[] = []
  const side = darken(look.chassis, luminance(look.chassis) > 0.4 ? 0.22 : 0.35)
  const edgeLight = lighten(look.chassis, 0.35)

  defs.push(
    `<linearGradient id="${id}-side" x1="0" y1="0" x2="1" y2="0">` +
      `<stop offset="0" stop-color="${lighten(side, 0.12)}"/><stop offset="1" stop-color="${darken(side, 0.12)}"/></linearGradient>`,
    `<linearGradient id="${id}-top" x1="0" y1="0" x2="0.3" y2="1">` +
      `<stop offset="0" stop-color="${lighten(look.chassis, 0.1)}"/><stop offset="1" stop-color="${darken(look.chassis, 0.06)}"/></linearGradient>`,
  )

  if (pose.open) {
    body.push(`<polygon points="${polygon(slabHull(cam, lid))}" fill="url(#${id}-side)"/>`)
    if (cam.facesCamera(lid.u, lid.v)) body.push(drawScreenFace(cam, lid, look, id, defs))
    body.push(`<polygon points="${polygon(slabHull(cam, deckSlab))}" fill="url(#${id}-side)"/>`)
    body.push(drawDeck(cam, look, id, defs))
  } else {
    const closedLid: Slab = { ...lid, thickness: L }
    body.push(`<polygon points="${polygon(slabHull(cam, deckSlab))}" fill="url(#${id}-side)"/>`)
    body.push(
      `<polygon points="${polygon(slabHull(cam, closedLid))}" fill="${mix(side, look.chassis, 0.35)}"/>`,
    )
    // The seam between lid and base; its hidden half ends up under the lid's top.
    body.push(
      `<polyline points="${polygon(slabOutline(closedLid, L).map((p) => cam.point(p)))}" fill="none" stroke="${darken(side, 0.45)}" stroke-opacity="0.7" stroke-width="${fmt(Math.max(1, k * 2))}"/>`,
    )
    body.push(drawLidTop(cam, closedLid, look, id))
  }
  // A light catching the top edge of the body makes the shapes read as metal.
  body.push(
    `<polyline points="${polygon(slabOutline(pose.open ? deckSlab : lid, 0).map((p) => cam.point(p)))}" fill="none" stroke="${edgeLight}" stroke-opacity="0.5" stroke-width="${fmt(Math.max(1, k * 1.6))}"/>`,
  )

  const footprint = convexHull(slabOutline(deckSlab, T).map((p) => cam.point(p)))
  return {
    defs: defs.join(''),
    body: body.join(''),
    footprint,
    bounds: { x: minX * k + origin[0], y: minY * k + origin[1], w: bw * k, h: bh * k },
  }
}

function drawScreenFace(cam: Camera, lid: Slab, look: LaptopLook, id: string, defs: string[]): string {
  const m = cam.face(lid.origin, lid.u, lid.v)
  const s = DISPLAY.w / CONTENT.w
  defs.push(
    `<clipPath id="${id}-display"><rect x="${DISPLAY.x}" y="${DISPLAY.y}" width="${DISPLAY.w}" height="${DISPLAY.h}" rx="3"/></clipPath>`,
  )
  return (
    `<g transform="${m}">` +
    `<rect width="${W}" height="${D}" rx="${R}" fill="${look.chassis}"/>` +
    `<rect x="3" y="3" width="${W - 6}" height="${D - 6}" rx="${R - 3}" fill="#0c0d10"/>` +
    `<g clip-path="url(#${id}-display)"><g transform="translate(${DISPLAY.x} ${DISPLAY.y}) scale(${fmt(s)})">` +
    drawScreenContent(look, id, defs) +
    `</g></g>` +
    `<circle cx="${W / 2}" cy="10.5" r="3.2" fill="#23262d"/><circle cx="${W / 2 - 0.8}" cy="9.7" r="1" fill="#4a5160"/>` +
    // Chin: the maker's name under the display on most Windows machines.
    (look.os === 'windows' && look.mark.path
      ? `<g transform="translate(${W / 2} ${DISPLAY.y + DISPLAY.h + 17})" opacity="0.55">${markGlyph(look.mark, 10, 60, '#d9dce2')}</g>`
      : '') +
    `</g>`
  )
}

function drawDeck(cam: Camera, look: LaptopLook, id: string, defs: string[]): string {
  const m = cam.face(deckSlab.origin, deckSlab.u, deckSlab.v)
  const dark = luminance(look.chassis) < 0.12
  const well = dark ? darken(look.chassis, 0.35) : darken(look.chassis, 0.12)
  const parts: string[] = [`<rect width="${W}" height="${D}" rx="${R}" fill="url(#${id}-top)"/>`]
  defs.push(
    `<linearGradient id="${id}-hinge" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.45"/><stop offset="1" stop-color="#000" stop-opacity="0"/></linearGradient>`,
  )
  parts.push(`<rect x="${R}" y="0" width="${W - 2 * R}" height="16" fill="url(#${id}-hinge)"/>`)

  // Keyboard: rows in key units (14.5 wide), function row shorter.
  const left = W * 0.075
  const top = D * 0.06
  const unit = (W * 0.85) / 14.5
  const gap = unit * 0.16
  parts.push(
    `<rect x="${fmt(left - gap)}" y="${fmt(top - gap)}" width="${fmt(unit * 14.5 + gap)}" height="${fmt(unit * 5.6 + gap)}" rx="6" fill="${well}"/>`,
  )
  if (look.glow) {
    defs.push(
      `<radialGradient id="${id}-glow"><stop offset="0" stop-color="${look.glow}" stop-opacity="0.3"/><stop offset="1" stop-color="${look.glow}" stop-opacity="0"/></radialGradient>`,
    )
    parts.push(
      `<ellipse cx="${W / 2}" cy="${fmt(top + unit * 2.8)}" rx="${fmt(unit * 7.4)}" ry="${fmt(unit * 3)}" fill="url(#${id}-glow)"/>`,
    )
  }
  const rows: number[][] = [
    Array(14).fill(14.5 / 14),
    [...Array(13).fill(1), 1.5],
    [1.5, ...Array(12).fill(1), 1],
    [1.75, ...Array(11).fill(1), 1.75],
    [2.25, ...Array(10).fill(1), 2.25],
    [1, 1, 1, 1.25, 5, 1.25, 1, 1, 1, 1],
  ]
  const keyFill = look.keys
  const stroke = look.glow ? ` stroke="${look.glow}" stroke-width="1.1" stroke-opacity="0.9"` : ''
  let y = top
  rows.forEach((row, r) => {
    const h = r === 0 ? unit * 0.6 : unit
    let x = left
    for (const wUnits of row) {
      parts.push(
        `<rect x="${fmt(x)}" y="${fmt(y)}" width="${fmt(wUnits * unit - gap)}" height="${fmt(h - gap)}" rx="4" fill="${keyFill}"${stroke}/>`,
      )
      x += wUnits * unit
    }
    y += h
  })
  // Trackpad.
  const padW = W * 0.42
  const padTop = top + unit * 5.6 + D * 0.05
  const padH = D - padTop - D * 0.06
  parts.push(
    `<rect x="${fmt((W - padW) / 2)}" y="${fmt(padTop)}" width="${fmt(padW)}" height="${fmt(padH)}" rx="10" fill="${dark ? lighten(look.chassis, 0.06) : darken(look.chassis, 0.05)}" stroke="${darken(look.chassis, 0.2)}" stroke-width="1.2"/>`,
  )
  return `<g transform="${m}">${parts.join('')}</g>`
}

function drawLidTop(cam: Camera, lid: Slab, look: LaptopLook, id: string): string {
  const m = cam.face(lid.origin, lid.u, lid.v)
  const light = luminance(look.chassis) > 0.35
  const markColour = light ? darken(look.chassis, 0.18) : lighten(look.chassis, 0.32)
  const mark = `<g transform="translate(${W / 2} ${D / 2 - 8})">${markGlyph(look.mark, 74, 190, markColour)}</g>`
  return (
    `<g transform="${m}"><rect width="${W}" height="${D}" rx="${R}" fill="url(#${id}-top)"/>` +
    `<rect x="0" y="0" width="${W}" height="${D}" rx="${R}" fill="none" stroke="${lighten(look.chassis, 0.25)}" stroke-opacity="0.6" stroke-width="2"/>` +
    mark +
    `</g>`
  )
}

/** The brand's mark centred on (0, 0), at most maxH tall and maxW wide. */
export function markGlyph(mark: BrandMark, maxH: number, maxW: number, fill: string): string {
  if (!mark.path) {
    const size = Math.min(maxH * 0.6, maxW / ((mark.wordmark ?? mark.name).length * 0.56))
    return `<text x="0" y="${fmt(size * 0.36)}" text-anchor="middle" font-family="Liberation Sans, DejaVu Sans, Arial, Helvetica, sans-serif" font-weight="600" font-size="${fmt(size)}" fill="${fill}">${escapeXml(mark.wordmark ?? mark.name)}</text>`
  }
  const k = Math.min(maxH / mark.box.h, maxW / mark.box.w)
  const tx = -(mark.box.x + mark.box.w / 2) * k
  const ty = -(mark.box.y + mark.box.h / 2) * k
  return `<path transform="translate(${fmt(tx)} ${fmt(ty)}) scale(${fmt(k)})" d="${mark.path}" fill="${fill}"/>`
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

// ---------------------------------------------------------------------------------------------
// The screen: wallpaper, the brand's mark and a hint of the operating system, in 1600 x 1000.
// ---------------------------------------------------------------------------------------------

export function drawScreenContent(look: LaptopLook, id: string, defs: string[]): string {
  if (look.screen !== undefined) return look.screen
  const { palette, style, seed } = look.wallpaper
  const rnd = seededRandom(seed)
  const out: string[] = [drawWallpaper(style, palette, rnd, `${id}-wp`, defs)]
  out.push(
    `<g transform="translate(800 450)" opacity="0.95">${markGlyph(look.mark, 190, 520, '#ffffff')}</g>`,
  )
  out.push(look.os === 'mac' ? drawMacChrome(id, defs) : drawWindowsChrome(palette))
  // Glass: a faint diagonal reflection.
  out.push(`<polygon points="0,0 760,0 260,1000 0,1000" fill="#ffffff" opacity="0.06"/>`)
  return out.join('')
}

export function drawWallpaper(
  style: WallpaperStyle,
  p: Palette,
  rnd: () => number,
  gid: string,
  defs: string[],
): string {
  const [c0, c1, c2, c3] = p
  const r = (a: number, b: number) => a + (b - a) * rnd()
  switch (style) {
    case 'waves': {
      defs.push(
        `<linearGradient id="${gid}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c0}"/><stop offset="1" stop-color="${c1}"/></linearGradient>`,
      )
      const wave = (base: number, amp: number, fill: string, opacity: number) => {
        const a = r(-amp, amp)
        const b = r(-amp, amp)
        return `<path d="M0 ${fmt(base)} C ${fmt(r(250, 400))} ${fmt(base - amp + a)}, ${fmt(r(550, 750))} ${fmt(base + amp + b)}, 1000 ${fmt(base + a / 2)} S ${fmt(r(1350, 1500))} ${fmt(base - amp)}, 1600 ${fmt(base + b / 2)} V1000 H0Z" fill="${fill}" opacity="${opacity}"/>`
      }
      return (
        `<rect width="1600" height="1000" fill="url(#${gid})"/>` +
        wave(r(520, 600), 110, c2, 0.45) +
        wave(r(660, 720), 90, c3, 0.35) +
        wave(r(800, 860), 70, c1, 0.55)
      )
    }
    case 'ridges': {
      defs.push(
        `<linearGradient id="${gid}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${c3}"/><stop offset="1" stop-color="${c1}"/></linearGradient>`,
      )
      const sunX = r(300, 1300)
      let out = `<rect width="1600" height="1000" fill="url(#${gid})"/><circle cx="${fmt(sunX)}" cy="${fmt(r(300, 420))}" r="${fmt(r(80, 120))}" fill="${lighten(c3, 0.6)}" opacity="0.85"/>`
      for (let i = 0; i < 4; i++) {
        const base = 520 + i * 120
        const pts: string[] = ['0,1000']
        for (let x = 0; x <= 1600; x += 100) pts.push(`${x},${fmt(base + r(-90, 60) - (i === 0 ? 80 : 0))}`)
        pts.push('1600,1000')
        out += `<polygon points="${pts.join(' ')}" fill="${mix(c1, c0, 0.25 + i * 0.25)}"/>`
      }
      return out
    }
    case 'orbs': {
      defs.push(
        `<linearGradient id="${gid}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c0}"/><stop offset="1" stop-color="${darken(c0, 0.3)}"/></linearGradient>`,
      )
      let out = `<rect width="1600" height="1000" fill="url(#${gid})"/>`
      ;[c1, c2, c3].forEach((c, i) => {
        defs.push(
          `<radialGradient id="${gid}-o${i}"><stop offset="0" stop-color="${c}" stop-opacity="0.9"/><stop offset="0.55" stop-color="${c}" stop-opacity="0.35"/><stop offset="1" stop-color="${c}" stop-opacity="0"/></radialGradient>`,
        )
        out += `<circle cx="${fmt(r(150, 1450))}" cy="${fmt(r(100, 900))}" r="${fmt(r(420, 700))}" fill="url(#${gid}-o${i})"/>`
      })
      return out
    }
    case 'bloom': {
      defs.push(
        `<linearGradient id="${gid}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${lighten(c0, 0.15)}"/><stop offset="1" stop-color="${darken(c0, 0.2)}"/></linearGradient>`,
        `<linearGradient id="${gid}-p" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient>`,
      )
      const cx = r(700, 900)
      const cy = r(460, 560)
      const start = r(0, 60)
      let out = `<rect width="1600" height="1000" fill="url(#${gid})"/>`
      for (let i = 0; i < 6; i++) {
        out += `<ellipse cx="${fmt(cx + 220)}" cy="${fmt(cy)}" rx="300" ry="110" transform="rotate(${fmt(start + i * 60)} ${fmt(cx)} ${fmt(cy)})" fill="url(#${gid}-p)" opacity="0.5"/>`
      }
      out += `<circle cx="${fmt(cx)}" cy="${fmt(cy)}" r="90" fill="${c3}" opacity="0.55"/>`
      return out
    }
    case 'aurora': {
      defs.push(
        `<linearGradient id="${gid}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${darken(c0, 0.35)}"/><stop offset="1" stop-color="${c0}"/></linearGradient>`,
        `<linearGradient id="${gid}-b" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${c1}" stop-opacity="0"/><stop offset="0.35" stop-color="${c1}"/><stop offset="0.7" stop-color="${c2}"/><stop offset="1" stop-color="${c3}" stop-opacity="0.2"/></linearGradient>`,
      )
      let out = `<rect width="1600" height="1000" fill="url(#${gid})"/>`
      const widths = [260, 170, 90]
      widths.forEach((w, i) => {
        const y0 = r(250, 450) + i * 70
        out += `<path d="M-100 ${fmt(y0 + 200)} C 400 ${fmt(y0 - r(150, 300))}, 900 ${fmt(y0 + r(150, 300))}, 1700 ${fmt(y0 - 100)}" fill="none" stroke="url(#${gid}-b)" stroke-width="${w}" stroke-linecap="round" opacity="${fmt(0.35 + i * 0.15)}"/>`
      })
      for (let i = 0; i < 40; i++) {
        out += `<circle cx="${fmt(r(0, 1600))}" cy="${fmt(r(0, 420))}" r="${fmt(r(1.5, 3.5))}" fill="#fff" opacity="${fmt(r(0.3, 0.8))}"/>`
      }
      return out
    }
  }
}

const APP_COLOURS = ['#0a84ff', '#30d158', '#ff9f0a', '#ff375f', '#bf5af2', '#64d2ff', '#ffd60a', '#5e5ce6']

function drawMacChrome(id: string, defs: string[]): string {
  defs.push(
    `<linearGradient id="${id}-app" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>`,
  )
  let out = `<rect width="1600" height="34" fill="#ffffff" opacity="0.22"/>`
  const menu = [34, 62, 48, 56, 40, 52]
  let x = 26
  for (const w of menu) {
    out += `<rect x="${x}" y="13" width="${w}" height="9" rx="4.5" fill="#ffffff" opacity="0.75"/>`
    x += w + 22
  }
  for (const [i, w] of [90, 26, 26].entries()) {
    out += `<rect x="${1560 - i * 60 - w}" y="13" width="${w}" height="9" rx="4.5" fill="#ffffff" opacity="0.75"/>`
  }
  const n = APP_COLOURS.length
  const size = 64
  const dockW = n * (size + 14) + 26
  const dx = 800 - dockW / 2
  out += `<rect x="${dx}" y="880" width="${dockW}" height="94" rx="26" fill="#ffffff" opacity="0.28" stroke="#ffffff" stroke-opacity="0.4"/>`
  APP_COLOURS.forEach((c, i) => {
    const ax = dx + 20 + i * (size + 14)
    out += `<rect x="${ax}" y="895" width="${size}" height="${size}" rx="16" fill="${c}"/><rect x="${ax}" y="895" width="${size}" height="${size}" rx="16" fill="url(#${id}-app)"/>`
  })
  return out
}

function drawWindowsChrome(p: Palette): string {
  const lightBar = luminance(p[0]) > 0.45
  let out = `<rect y="936" width="1600" height="64" fill="${lightBar ? '#ffffff' : '#14161b'}" opacity="${lightBar ? 0.7 : 0.6}"/>`
  const colours = ['#3b82f6', ...APP_COLOURS.slice(1, 7)]
  const n = colours.length
  const x0 = 800 - (n * 54) / 2
  colours.forEach((c, i) => {
    out += `<rect x="${x0 + i * 54 + 7}" y="948" width="40" height="40" rx="9" fill="${c}" opacity="0.95"/>`
  })
  out += `<rect x="1430" y="958" width="70" height="9" rx="4.5" fill="${lightBar ? '#1f2937' : '#ffffff'}" opacity="0.7"/><rect x="1440" y="972" width="50" height="8" rx="4" fill="${lightBar ? '#1f2937' : '#ffffff'}" opacity="0.5"/>`
  return out
}

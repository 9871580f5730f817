// Small helpers for drawing the demo illustrations: a parallel-projection camera (so every flat
// face of a laptop maps to an SVG affine matrix), 2D hulls, colour mixing and a seeded random.

import { seededRandom as drawsFrom } from '#server/lib/seeded-random'

export type Vec3 = readonly [number, number, number]
export type Vec2 = readonly [number, number]

export function add3(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

export function scale3(a: Vec3, k: number): Vec3 {
  return [a[0] * k, a[1] * k, a[2] * k]
}

/**
 * Orthographic camera: yaw turns the object around the vertical axis, pitch looks down on it.
 * x goes right, y up, z towards the viewer; SVG y grows downwards.
 */
export class Camera {
  private readonly cy: number
  private readonly sy: number
  private readonly cp: number
  private readonly sp: number

  constructor(
    readonly yawDeg: number,
    readonly pitchDeg: number,
    private readonly scale = 1,
    private readonly origin: Vec2 = [0, 0],
  ) {
    const yaw = (yawDeg * Math.PI) / 180
    const pitch = (pitchDeg * Math.PI) / 180
    this.cy = Math.cos(yaw)
    this.sy = Math.sin(yaw)
    this.cp = Math.cos(pitch)
    this.sp = Math.sin(pitch)
  }

  /** The same view, scaled and moved on the canvas. */
  placed(scale: number, origin: Vec2): Camera {
    return new Camera(this.yawDeg, this.pitchDeg, scale, origin)
  }

  /** A direction on the canvas (no translation). */
  dir(v: Vec3): Vec2 {
    const x1 = v[0] * this.cy + v[2] * this.sy
    const z1 = -v[0] * this.sy + v[2] * this.cy
    const y = -v[1] * this.cp + z1 * this.sp
    return [x1 * this.scale, y * this.scale]
  }

  point(p: Vec3): Vec2 {
    const [x, y] = this.dir(p)
    return [x + this.origin[0], y + this.origin[1]]
  }

  /** SVG transform that draws local (s, t) content onto the plane origin + s*u + t*v. */
  face(origin: Vec3, u: Vec3, v: Vec3): string {
    const [a, b] = this.dir(u)
    const [c, d] = this.dir(v)
    const [e, f] = this.point(origin)
    return `matrix(${[a, b, c, d, e, f].map(fmt).join(' ')})`
  }

  /** True when the plane spanned by u then v (clockwise on screen) faces the camera. */
  facesCamera(u: Vec3, v: Vec3): boolean {
    const [a, b] = this.dir(u)
    const [c, d] = this.dir(v)
    return a * d - b * c > 0
  }
}

export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, '')
}

export function polygon(points: readonly Vec2[]): string {
  return points.map((p) => `${fmt(p[0])},${fmt(p[1])}`).join(' ')
}

/** Convex hull (monotone chain), used to fill the sides of a slab seen at an angle. */
export function convexHull(points: readonly Vec2[]): Vec2[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1])
  if (pts.length < 3) return pts
  const cross = (o: Vec2, a: Vec2, b: Vec2) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
  const lower: Vec2[] = []
  for (const p of pts) {
    while (
      lower.length >= 2 &&
      cross(lower[lower.length - 2] as Vec2, lower[lower.length - 1] as Vec2, p) <= 0
    )
      lower.pop()
    lower.push(p)
  }
  const upper: Vec2[] = []
  for (const p of [...pts].reverse()) {
    while (
      upper.length >= 2 &&
      cross(upper[upper.length - 2] as Vec2, upper[upper.length - 1] as Vec2, p) <= 0
    )
      upper.pop()
    upper.push(p)
  }
  lower.pop()
  upper.pop()
  return [...lower, ...upper]
}

/** Outline of a rounded rectangle in its own plane, corners sampled, for projecting to a hull. */
export function roundedRectOutline(w: number, h: number, r: number, steps = 5): Vec2[] {
  const out: Vec2[] = []
  const corners: [number, number, number][] = [
    [w - r, r, -90],
    [w - r, h - r, 0],
    [r, h - r, 90],
    [r, r, 180],
  ]
  for (const [cx, cy, start] of corners) {
    for (let i = 0; i <= steps; i++) {
      const a = ((start + (90 * i) / steps) * Math.PI) / 180
      out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)])
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Colour
// ---------------------------------------------------------------------------------------------

function parseHex(hex: string): [number, number, number] {
  const h = hex.replace('#', '')
  const full =
    h.length === 3
      ? h
          .split('')
          .map((c) => c + c)
          .join('')
      : h
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number]
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.max(0, Math.min(255, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

/** Mixes two colours; t = 0 gives a, t = 1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const x = parseHex(a)
  const y = parseHex(b)
  return toHex(x.map((c, i) => c + ((y[i] as number) - c) * t))
}

export function lighten(hex: string, t: number): string {
  return mix(hex, '#ffffff', t)
}

export function darken(hex: string, t: number): string {
  return mix(hex, '#000000', t)
}

/** Relative luminance (0 black .. 1 white). */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------

/** Draws from a seed, a number or a text, so every drawing comes out the same each time. */
export function seededRandom(seed: string | number): () => number {
  return drawsFrom(typeof seed === 'number' ? seed : hashString(seed))
}

export function hashString(s: string): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 16777619)
  }
  return h >>> 0
}

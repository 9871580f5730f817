/**
 * A small generator of numbers in [0, 1) from a seed (mulberry32): the same draws on every run and every machine. The
 * search warm-up's searches, the demo's drawings and the tests that try many cases draw from it.
 */
export function seededRandom(seed: number): () => number {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

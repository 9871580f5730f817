// Real-shaped battery reports of the three systems (made up, with plausible numbers), for tests.
import fs from 'node:fs'
import path from 'node:path'

const dir = path.join(import.meta.dirname, '..', 'modules', 'battery-reports', 'fixtures')
const fixture = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8')

/** powercfg /batteryreport: 49,590 of 57,000 mWh (87%), 212 cycles, 12 Nov 2026. */
export const WINDOWS_REPORT = fixture('windows-battery-report.html')
/** (date; system_profiler SPPowerDataType): Maximum Capacity 89%, 187 cycles, 12 Nov 2026. */
export const MACOS_REPORT = fixture('macos-system-profiler.txt')
/** upower -i: 44.61 of 57 Wh (78%), 341 cycles, 12 Nov 2026. */
export const LINUX_REPORT = fixture('linux-upower.txt')

/** Cuts, flips, repeats or splices random bytes into a sample. */
export function mangle(sample: Buffer, random: () => number): Buffer {
  const at = Math.floor(random() * sample.length)
  switch (Math.floor(random() * 5)) {
    case 0:
      return sample.subarray(0, at)
    case 1: {
      const copy = Buffer.from(sample)
      for (let k = 0; k < 8; k++) copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256)
      return copy
    }
    case 2:
      return Buffer.concat([sample.subarray(0, at), sample.subarray(at / 2)])
    case 3:
      return Buffer.concat([
        sample.subarray(0, at),
        Buffer.from(String(Math.floor(random() * 1e9))),
        sample.subarray(at),
      ])
    default:
      return Buffer.from(sample.toString('latin1').replace(/[0-9]/g, () => String(Math.floor(random() * 10))))
  }
}

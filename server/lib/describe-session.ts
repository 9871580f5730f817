import net from 'node:net'

/** "Chrome on Windows" from a user agent; enough to tell one's own devices apart. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser'
  const ua = userAgent
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /curl|node|undici|okhttp|python/i.test(ua)
              ? 'A program'
              : 'A browser'
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : ''
  return os ? `${browser} on ${os}` : browser
}

function isPrivate(ip: string): boolean {
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number) as [number, number]
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)
  }
  const lower = ip.toLowerCase()
  return lower === '::1' || lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80')
}

/**
 * Roughly where a session was started. No location database ships with the app, so this is the network:
 * a private one, or the public address with its last part hidden (enough to spot a stranger's).
 */
export function describePlace(ip: string | null): string {
  if (!ip) return 'Unknown place'
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip
  if (isPrivate(plain)) return 'A private network (this computer or a local one)'
  if (net.isIPv4(plain)) return `Internet address ${plain.split('.').slice(0, 3).join('.')}.x`
  if (net.isIPv6(plain)) return `Internet address ${plain.split(':').slice(0, 3).join(':')}:…`
  return 'Unknown place'
}

/**
 * Where one of the person's own sessions signed in, for their session list: the address itself (no location
 * database ships with the app, so no town is named), marked when it is a private network.
 */
export function describeAddress(ip: string | null): string {
  if (!ip) return 'Address not recorded'
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip
  if (!net.isIP(plain)) return 'Address not recorded'
  return isPrivate(plain) ? `${plain} (this computer or a local network)` : plain
}

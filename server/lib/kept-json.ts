import zlib from 'node:zlib'

/** br when the client takes it, else gzip, else none; `;q=0` refuses an encoding (pages and kept answers). */
export function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    String(header ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.trim().split(/\s*;\s*/))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q))
      .map(([name]) => name),
  )
  if (accepted.has('br')) return 'br'
  if (accepted.has('gzip')) return 'gzip'
  return undefined
}

/** Bodies shorter than this are sent as they are (as the compression plugin's threshold). */
export const COMPRESS_FROM_BYTES = 1024

const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }

/**
 * An answer serialized once and kept (the public cache's), with each compressed form made the first time a client
 * asks for it and kept with it: a kept answer costs no serializing and no compressing per request, where the
 * compression plugin compressed it again for every request that took br or gzip.
 */
export class KeptJson {
  readonly bytes: number
  private readonly encoded: Partial<Record<'br' | 'gzip', Buffer>> = {}

  constructor(readonly text: string) {
    this.bytes = Buffer.byteLength(text)
  }

  /** The body compressed with `encoding`, made once. */
  encodedAs(encoding: 'br' | 'gzip'): Buffer {
    let out = this.encoded[encoding]
    if (!out) {
      out =
        encoding === 'br'
          ? zlib.brotliCompressSync(this.text, BROTLI)
          : zlib.gzipSync(this.text, { level: 6 })
      this.encoded[encoding] = out
    }
    return out
  }
}

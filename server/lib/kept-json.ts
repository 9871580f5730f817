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

/**
 * The options of a route that answers with a KeptJson (through sendJson, which sends the form the client takes): the
 * compression plugin's three hooks a request (onRequest, preParsing, onSend) have nothing to do there, and cost
 * a tenth of such a route's throughput (decision 0155).
 */
export const SENDS_KEPT_JSON = { compress: false, decompress: false } as const

const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }

/**
 * An answer serialized once and kept (the public cache's), with each form it is sent in (its UTF-8 bytes, and each
 * compressed form) made the first time a client asks for that form and kept with it: a kept answer costs no
 * serializing, encoding or compressing per request. The compression plugin compressed it again for every request
 * that took br or gzip; sent as text, Node encoded it again for every request that took neither (decision 0155).
 */
export class KeptJson {
  readonly bytes: number
  private readonly forms: Partial<Record<'br' | 'gzip' | 'plain', Buffer>> = {}

  constructor(readonly text: string) {
    this.bytes = Buffer.byteLength(text)
  }

  /** The body as sent with `encoding` (none: as it is), made once. */
  sentAs(encoding: 'br' | 'gzip' | undefined): Buffer {
    const form = encoding ?? 'plain'
    let out = this.forms[form]
    if (!out) {
      out =
        form === 'br'
          ? zlib.brotliCompressSync(this.text, BROTLI)
          : form === 'gzip'
            ? zlib.gzipSync(this.text, { level: 6 })
            : Buffer.from(this.text)
      this.forms[form] = out
    }
    return out
  }
}

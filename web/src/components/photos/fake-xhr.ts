import { vi } from 'vitest'

type Listener = (event: { lengthComputable: boolean; loaded: number; total: number }) => void

/** A stand-in for XMLHttpRequest: each request waits until the test reports progress and answers it. */
export class FakeXhr {
  static requests: FakeXhr[] = []
  method = ''
  url = ''
  status = 0
  responseText = ''
  responseType = ''
  body: FormData | undefined
  headers: Record<string, string> = {}
  private listeners = new Map<string, (() => void)[]>()
  private uploadListeners: Listener[] = []
  upload = {
    addEventListener: (_type: 'progress', listener: Listener) => this.uploadListeners.push(listener),
  }

  constructor() {
    FakeXhr.requests.push(this)
  }

  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  send(body: FormData) {
    this.body = body
  }
  abort() {
    this.emit('abort')
  }

  progress(loaded: number, total: number) {
    for (const l of this.uploadListeners) l({ lengthComputable: true, loaded, total })
  }
  respond(status: number, body: unknown) {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.emit('load')
  }
  private emit(type: string) {
    for (const l of this.listeners.get(type) ?? []) l()
  }

  static install() {
    FakeXhr.requests = []
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
  }
}

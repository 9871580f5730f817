// The image's HEALTHCHECK: exits 0 when this container's server answers GET /api/health with 200 within 3 s.
// A draining instance answers 503 and so counts as unhealthy, as a balancer sees it.
const host =
  !process.env.HOST || ['0.0.0.0', '::'].includes(process.env.HOST) ? '127.0.0.1' : process.env.HOST
const port = process.env.PORT || '3000'
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/api/health`
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) })
  if (res.status !== 200) {
    console.error(`${url} answered ${res.status}`)
    process.exit(1)
  }
} catch (err) {
  console.error(`${url}: ${err instanceof Error ? err.message : err}`)
  process.exit(1)
}

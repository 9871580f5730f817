// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  type Histogram = {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p99: number
  }
  export type Options = {
    url: string
    connections?: number
    duration?: number
    pipelining?: number
    workers?: number
    timeout?: number
    headers?: Record<string, string>
  }
  export type Result = {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    non2xx: number
    duration: number
  }
  export default function autocannon(options: Options): Promise<Result>
}

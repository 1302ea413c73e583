import autocannon from 'autocannon';

export interface HttpFigures {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** One autocannon run; latencies in milliseconds. */
export async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
}): Promise<HttpFigures> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    ...(opts.body !== undefined ? { body: opts.body } : {}),
    connections: opts.connections ?? 16,
    duration: opts.seconds ?? 8,
  });
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function printHttp(label: string, f: HttpFigures): void {
  console.log(
    `${label.padEnd(44)} ${String(f.requestsPerSec).padStart(7)} req/s   p50 ${f.p50} ms   p99 ${f.p99} ms   non-2xx ${f.non2xx}   errors ${f.errors}`,
  );
}

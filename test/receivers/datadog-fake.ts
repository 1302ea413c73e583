import { type FakeHttp, type RecordedRequest, type Reply, startFakeHttp } from './fake-http.js';

export interface DatadogFake extends FakeHttp {
  logs: Record<string, unknown>[];
}

/**
 * Datadog logs intake v2 contract: POST /api/v2/logs with DD-API-KEY (403 otherwise), JSON object or array
 * of at most 1000 entries (400 otherwise), at most 5 MB uncompressed (413), gzip accepted. Success is 202 {}.
 */
export async function startDatadogFake(apiKey: string): Promise<DatadogFake> {
  const logs: Record<string, unknown>[] = [];
  const handle = (req: RecordedRequest): Reply => {
    if (req.method !== 'POST' || req.path !== '/api/v2/logs')
      return { status: 404, body: { errors: ['Not found'] } };
    if (req.headers['dd-api-key'] !== apiKey) return { status: 403, body: { errors: ['Forbidden'] } };
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return { status: 400, body: { errors: ['Bad Request'] } };
    if (req.body.byteLength > 5 * 1024 * 1024)
      return { status: 413, body: { errors: ['Payload too large'] } };
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.text);
    } catch {
      return { status: 400, body: { errors: ['Bad Request'] } };
    }
    const entries = Array.isArray(parsed) ? parsed : [parsed];
    if (entries.length > 1000) return { status: 400, body: { errors: ['Too many entries'] } };
    for (const e of entries) {
      if (e === null || typeof e !== 'object') return { status: 400, body: { errors: ['Bad Request'] } };
    }
    logs.push(...(entries as Record<string, unknown>[]));
    return { status: 202, body: {} };
  };
  const fake = await startFakeHttp(handle);
  return Object.assign(fake, { logs });
}

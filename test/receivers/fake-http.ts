import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { TestPki } from './pki.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Body after Content-Encoding: gzip is undone. */
  body: Buffer;
  text: string;
}

export interface Reply {
  status: number;
  body?: string | object;
  headers?: Record<string, string>;
}

/** A scripted fault replaces the fake's normal answer for one request; "hang" never answers. */
export type Fault = Reply | 'hang' | 'reset';

export interface FakeHttp {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Queue faults for the next requests, in order. */
  fail(...faults: Fault[]): void;
  close(): Promise<void>;
}

/**
 * Shared plumbing of the contract fakes: records every request, undoes gzip, replays scripted faults, and
 * otherwise lets the protocol handler answer. HTTPS when given a PKI.
 */
export async function startFakeHttp(
  handle: (req: RecordedRequest) => Reply,
  opts: { pki?: TestPki } = {},
): Promise<FakeHttp> {
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') {
        try {
          body = gunzipSync(body);
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad gzip"}');
          return;
        }
      }
      const u = new URL(req.url ?? '/', 'http://fake');
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body,
        text: body.toString('utf8'),
      };
      requests.push(rec);
      const fault = faults.shift();
      if (fault === 'hang') return;
      if (fault === 'reset') {
        req.socket.destroy();
        return;
      }
      const reply = fault ?? handle(rec);
      const text =
        reply.body === undefined
          ? ''
          : typeof reply.body === 'string'
            ? reply.body
            : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(text);
    });
  };
  const server = opts.pki
    ? https.createServer({ key: opts.pki.keyPem, cert: opts.pki.certPem }, onRequest)
    : http.createServer(onRequest);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.pki ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    fail: (...f) => faults.push(...f),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Worker } from 'playwright-core';
import { buildExtension, type BuildResult } from '../build.js';
import { pageFor, type Received, respond } from './fixtures/sites.js';

// The end-to-end rig: the built extension in Debian's headless Chromium, the fake AI sites on loopback
// HTTPS under their real names, and whatever Parapet server the test starts.

export const SITE_HOSTS = [
  'chatgpt.com',
  'claude.ai',
  'gemini.google.com',
  'perplexity.ai',
  'www.perplexity.ai',
  'chat.newai-labs.test',
];

export interface FakeSites {
  port: number;
  received: Received[];
  close(): Promise<void>;
}

function selfSigned(dir: string): { key: Buffer; cert: Buffer } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=parapet-test',
      '-addext',
      `subjectAltName=${SITE_HOSTS.map((h) => `DNS:${h}`).join(',')}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

export async function startFakeSites(dir: string): Promise<FakeSites> {
  const received: Received[] = [];
  const server: Server = createServer(selfSigned(dir), (req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const path = (req.url ?? '/').split('?')[0]!;
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      if (req.method === 'POST') received.push({ host, path, body });
      const answer = req.method === 'POST' ? respond(host, path, body) : null;
      if (answer) {
        res.writeHead(200, { 'content-type': answer.type, 'cache-control': 'no-store', ...answer.headers });
        // Each event in its own write, a little apart, as a model streams.
        let i = 0;
        const next = () => {
          if (i >= answer.chunks.length) return void res.end();
          res.write(answer.chunks[i++]);
          setTimeout(next, 2);
        };
        next();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pageFor(host));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    port: typeof addr === 'object' && addr ? addr.port : 0,
    received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export interface Rig {
  dir: string;
  build: BuildResult;
  sites: FakeSites;
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  /** Runs chrome.runtime.sendMessage from an extension page (the worker cannot message itself). */
  message<T>(msg: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startRig(): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-ext-'));
  const build = await buildExtension(join(dir, 'dist'));
  const sites = await startFakeSites(dir);
  const ext = build.dirs.chrome;
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 720 },
    args: [
      `--disable-extensions-except=${ext}`,
      `--load-extension=${ext}`,
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--ignore-certificate-errors',
      `--host-resolver-rules=${SITE_HOSTS.map((h) => `MAP ${h} 127.0.0.1:${sites.port}`).join(', ')}`,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  const extPage = await context.newPage();
  await extPage.goto(`chrome-extension://${extensionId}/popup.html`);
  return {
    dir,
    build,
    sites,
    context,
    worker,
    extensionId,
    message: <T>(msg: unknown) =>
      extPage.evaluate((m) => chrome.runtime.sendMessage(m), msg as never) as Promise<T>,
    async close() {
      await context.close();
      await sites.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import type { Duplex } from 'node:stream';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { buildExtension, type BuildResult } from '../build.js';
import { copilotAnswer, pageFor, type Received, respond } from './fixtures/sites.js';

// The end-to-end rig: the built extension in Debian's headless Chromium, the fake AI sites on loopback
// HTTPS under their real names, and whatever Parapet server the test starts.

export const SITE_HOSTS = [
  'chatgpt.com',
  'claude.ai',
  'gemini.google.com',
  'perplexity.ai',
  'www.perplexity.ai',
  'copilot.microsoft.com',
  'chat.mistral.ai',
  'chat.newai-labs.test',
  // AI sites of the config beyond the built-in six: one from the catalog, one a policy adds
  'chat.deepseek.com',
  'assistant.acme-llm.test',
  // a document tool of the catalog ("Writing"): tokenizing starts off there
  'www.notion.so',
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

// ---- a WebSocket endpoint (RFC 6455, text frames), for the Copilot stand-in ----

function wsFrame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : Buffer.alloc(n < 65536 ? 4 : 10);
  if (n >= 126 && n < 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else if (n >= 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

/** Accepts the upgrade and calls onText with each text frame (browsers send them masked, unfragmented). */
function acceptWebSocket(
  key: string,
  socket: Duplex,
  onText: (text: string, reply: (text: string) => void) => void,
): void {
  const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  const reply = (text: string) => socket.write(wsFrame(1, Buffer.from(text)));
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const opcode = buf[0]! & 0x0f;
      let len = buf[1]! & 0x7f;
      let at = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        at = 10;
      }
      const masked = (buf[1]! & 0x80) !== 0;
      const end = at + (masked ? 4 : 0) + len;
      if (buf.length < end) return;
      const payload = Buffer.from(buf.subarray(end - len, end));
      if (masked) for (let i = 0; i < len; i++) payload[i]! ^= buf[at + (i % 4)]!;
      buf = buf.subarray(end);
      if (opcode === 1) onText(payload.toString('utf8'), reply);
      else if (opcode === 8) {
        socket.end(wsFrame(8, Buffer.alloc(0)));
        return;
      } else if (opcode === 9) socket.write(wsFrame(10, payload));
    }
  });
  socket.on('error', () => undefined);
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
  // Copilot's chat socket: each "send" frame is recorded and answered with appendText frames echoing it.
  server.on('upgrade', (req, socket: Duplex) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const path = (req.url ?? '/').split('?')[0]!;
    const key = req.headers['sec-websocket-key'];
    if (host !== 'copilot.microsoft.com' || path !== '/c/api/chat' || typeof key !== 'string') {
      socket.destroy();
      return;
    }
    acceptWebSocket(key, socket, (text, reply) => {
      const frames = copilotAnswer(text);
      if (!frames) return;
      received.push({ host, path, body: text });
      for (const f of frames) reply(f);
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

/** Where Debian's Chromium reads mandatory policy (JSON files); only root may write there. */
export const POLICY_DIR = '/etc/chromium/policies/managed';

/** Chromium's id of an unpacked extension: SHA-256 of its absolute path, first 16 bytes, hex digits as a–p. */
export function unpackedExtensionId(path: string): string {
  const hex = createHash('sha256').update(path).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + Number.parseInt(c, 16))).join('');
}

/**
 * Writes the extension's managed configuration as an administrator would: a policy file with a "3rdparty"
 * section for the extension's id. Returns its removal. Without root it stops with the command to run.
 */
function writeManagedPolicy(extensionDir: string, managed: Record<string, string>): () => void {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Writing Chromium's managed policy (${POLICY_DIR}) needs root. Run this test as root: ` +
        'sudo node scripts/run-tests.mjs extension/test/managed',
    );
  }
  const id = unpackedExtensionId(extensionDir);
  const created = ['/etc/chromium/policies', POLICY_DIR].filter((d) => !existsSync(d));
  mkdirSync(POLICY_DIR, { recursive: true, mode: 0o755 });
  // Named after the id: other Chromium instances on the machine read it too, and it concerns only this one.
  const file = join(POLICY_DIR, `parapet-test-${id}.json`);
  writeFileSync(file, JSON.stringify({ '3rdparty': { extensions: { [id]: managed } } }), { mode: 0o644 });
  return () => {
    rmSync(file, { force: true });
    for (const d of created.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // not empty: someone else put a policy there meanwhile
      }
    }
  };
}

export interface RigOptions {
  /** the extension's managed configuration (chrome.storage.managed), set by enterprise policy */
  managed?: Record<string, string>;
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  // The real path: Chromium derives an unpacked extension's id from it.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'parapet-ext-')));
  const build = await buildExtension(join(dir, 'dist'));
  const ext = build.dirs.chrome;
  const removePolicy = options.managed ? writeManagedPolicy(ext, options.managed) : () => undefined;
  const sites = await startFakeSites(dir);
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
      removePolicy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A PNG (base64) of black text lines on white, drawn by the page's canvas: what OCR tests and benches read. */
export function textImage(
  page: Page,
  o: { width: number; height: number; font: string; lines: string[]; top: number; step: number },
): Promise<string> {
  return page.evaluate((o) => {
    const c = document.createElement('canvas');
    c.width = o.width;
    c.height = o.height;
    const g = c.getContext('2d')!;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, c.width, c.height);
    g.fillStyle = '#000';
    g.font = o.font;
    for (const [i, l] of o.lines.entries()) g.fillText(l, 30, o.top + i * o.step);
    return c.toDataURL('image/png').split(',')[1]!;
  }, o);
}

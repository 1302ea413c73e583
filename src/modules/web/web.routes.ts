import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { type App, setNotFoundPage } from '../../platform/http/index.js';

/** The built dashboard (web/dist), relative to this file in src/ and in the compiled dist/ alike. */
export const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/**
 * The app's HTML loads one script and one style sheet from its own origin; nothing inline, no eval, no
 * framing, no form or base-URI tricks. connect-src 'self' keeps the app talking to this server only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const HTML_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  // The page names hashed assets: it must be revalidated each time so a new build is picked up at once.
  'cache-control': 'no-cache',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parapet</title></head>
<body><h1>The dashboard is not built</h1><p><code>npm start</code> builds it before the server starts;
run <code>npm run build:web</code> when starting the server another way.</p></body></html>`;

function html(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply.status(status).headers(HTML_HEADERS).type('text/html; charset=utf-8').send(body);
}

/**
 * Serves the dashboard web app at `/`: hashed assets under /assets/ (cached for a year, immutable), and
 * index.html (never cached) for every client-side route listed by the build in routes.json, so a reload
 * or a bookmark of /keys works. A browser navigating to an unknown address outside /api/ gets index.html
 * with status 404 (the app shows its "Not found" page, as it does for the same address reached inside the
 * app); API paths and clients that do not ask for HTML keep the API's JSON 404.
 */
export function webRoutes(options: { dir?: string } = {}) {
  const dir = options.dir ?? WEB_DIST;
  return async (app: App) => {
    const indexFile = `${dir}index.html`;
    if (!existsSync(indexFile)) {
      app.get('/', { schema: { hide: true } }, async (_request, reply) => html(reply, NOT_BUILT, 503));
      return;
    }
    const index = readFileSync(indexFile, 'utf8');
    const routes = JSON.parse(readFileSync(`${dir}routes.json`, 'utf8')) as string[];
    for (const path of routes) {
      app.get(path, { schema: { hide: true } }, async (_request, reply) => html(reply, index));
    }
    setNotFoundPage(app, (reply) => html(reply, index, 404));
    await app.register(fastifyStatic, {
      root: `${dir}assets`,
      prefix: '/assets/',
      wildcard: false,
      index: false,
      decorateReply: false,
      // file names carry a content hash: a name never changes its content
      maxAge: '365d',
      immutable: true,
      setHeaders: (res) => {
        res.header('x-content-type-options', 'nosniff');
        res.header('cross-origin-resource-policy', 'same-origin');
      },
    });
  };
}

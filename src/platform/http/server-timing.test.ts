import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../errors/index.js';
import { createLogger } from '../log/index.js';
import { addServerTiming, type App, createHttpServer } from './index.js';

describe('Server-Timing', () => {
  let app: App;
  before(async () => {
    app = await createHttpServer({
      logger: createLogger('silent'),
      bodyLimit: 1024,
      trustProxy: false,
      version: 'test',
    });
    app.get('/plain', { schema: { hide: true } }, async () => ({ ok: true }));
    app.get('/phases', { schema: { hide: true } }, async (request) => {
      addServerTiming(request, 'dlp', 1.234);
      addServerTiming(request, 'upstream', 5);
      return { ok: true };
    });
    app.get('/own', { schema: { hide: true } }, async (request, reply) => {
      reply.header('server-timing', 'cache;dur=0.50');
      addServerTiming(request, 'dlp', 2);
      return { ok: true };
    });
    app.get('/fails', { schema: { hide: true } }, async (request) => {
      addServerTiming(request, 'dlp', 3);
      throw new AppError('invalid_request', 'no');
    });
    await app.ready();
  });
  after(() => app.close());

  const timingOf = async (url: string) => (await app.inject({ url })).headers['server-timing'];

  it("starts with the app's own time and appends the phases a route added, in order", async () => {
    assert.match(String(await timingOf('/plain')), /^app;dur=\d+\.\d\d$/);
    assert.match(String(await timingOf('/phases')), /^app;dur=\d+\.\d\d, dlp;dur=1\.23, upstream;dur=5\.00$/);
    assert.match(String(await timingOf('/nowhere')), /^app;dur=\d+\.\d\d$/);
  });

  it('keeps a header the route set itself, and phases on error responses', async () => {
    assert.equal(await timingOf('/own'), 'cache;dur=0.50, dlp;dur=2.00');
    assert.match(String(await timingOf('/fails')), /^app;dur=\d+\.\d\d, dlp;dur=3\.00$/);
  });
});

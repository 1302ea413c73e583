import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock/index.js';
import { newDevice, newUser } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { detection } from '../support/shadow-ai-cases.js';

const clock = new ManualClock('2026-06-10T12:00:00.000Z');
let t: TestServer;
let a: Tenant;
let b: Tenant;

before(async () => {
  t = await startTestServer({ clock });
  a = await t.tenant({ name: 'A', plan: 'business' });
  b = await t.tenant({ name: 'B', plan: 'business' });
});
after(async () => t.close());

const report = (token: string, body: unknown) =>
  t.request('POST', '/api/v1/endpoint/shadow-ai/report', { key: token, body });
const services = async (tenant: Tenant, query = '') => {
  const res = await t.request('GET', `/api/dashboard/shadow-ai/services${query}`, {
    cookie: await tenant.session('viewer'),
  });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const eventsOf = (orgId: string, type: string) =>
  t.ctx.storage.db
    .selectFrom('events')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('type', '=', type)
    .execute();
const config = async (token: string) => {
  const res = await t.request('GET', '/api/v1/endpoint/config', { key: token });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const now = () => clock.now();

describe('detection reports', () => {
  it('adds usage to a catalog service and creates an unknown one as discovered by heuristics', async () => {
    const dev = await newDevice(t, a);
    const res = await report(dev.deviceToken, {
      reportId: 'rep-1',
      detections: [
        detection('chatgpt.com', [], 4, now()),
        detection('chat.openai.com', [], 1, now()),
        detection('WWW.Mystery-AI.example', ['streaming_response', 'ai_headers'], 2, now()),
        detection('quiet.example', [], 7, now()),
      ],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.duplicate, false);
    assert.equal(res.body.accepted, 3);
    assert.equal(res.body.ignored, 1, 'an unknown domain without any signal is not a detection');

    const list = await services(a);
    const chat = list.services.find((s: any) => s.domain === 'chatgpt.com');
    assert.equal(chat.detectedBy, 'catalog');
    assert.equal(chat.usageCount, 4);
    // the device is bound to no user: it is counted as such, not as a user ("by 1 users" before)
    assert.equal(chat.uniqueUsers, 0);
    assert.equal(chat.unboundDevices, 1);
    assert.equal(chat.category, 'chatbot');
    assert.equal(chat.dataResidency, 'US');
    assert.equal(chat.riskLevel, 'medium');
    assert.equal(chat.status, 'monitored', 'a catalog entry under review is monitored');
    const unknown = list.services.find((s: any) => s.domain === 'mystery-ai.example');
    assert.match(unknown.id, /^svc_/);
    assert.equal(unknown.status, 'discovered');
    assert.equal(unknown.detectedBy, 'heuristic');
    assert.deepEqual(unknown.heuristicSignals, ['ai_headers', 'streaming_response']);
    assert.equal(unknown.category, 'auto-detect');
    assert.equal(unknown.riskLevel, 'high');
    assert.equal(list.stats.discovered, 1);
    assert.equal(list.stats.totalServices, 3);

    const discovered = await eventsOf(a.org.id, 'shadow_ai.discovered');
    assert.equal(discovered.length, 3);
    const data = JSON.parse(discovered.find((e) => e.data.includes('mystery-ai'))!.data);
    assert.equal(data.detectedBy, 'heuristic');
    assert.equal(data.deviceId, dev.deviceId);
    assert.equal(data.userId, undefined, 'no user in the event');
  });

  it('is idempotent per report id and keeps counting under new ids', async () => {
    const dev = await newDevice(t, a);
    const body = { reportId: 'rep-same', detections: [detection('claude.ai', ['chat_pattern'], 5, now())] };
    assert.equal((await report(dev.deviceToken, body)).body.duplicate, false);
    const again = await report(dev.deviceToken, body);
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);
    let claude = (await services(a, '?search=claude')).services[0];
    assert.equal(claude.usageCount, 5);
    await report(dev.deviceToken, { ...body, reportId: 'rep-next' });
    claude = (await services(a, '?search=claude')).services[0];
    assert.equal(claude.usageCount, 10);
    // The same report id from another device is another report.
    const other = await newDevice(t, a);
    assert.equal((await report(other.deviceToken, body)).body.duplicate, false);
  });

  it('refuses an oversized batch, and a report none of whose detections can be applied, storing nothing', async () => {
    const dev = await newDevice(t, a);
    const before = (await services(a)).stats.totalServices;
    const big = Array.from({ length: 201 }, (_, i) => detection(`x${i}.batch.example`, ['chat_pattern']));
    const res = await report(dev.deviceToken, { reportId: 'rep-big', detections: big });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
    assert.match(res.body.message, /detections/);
    assert.equal(res.body.rejected, undefined, 'an envelope error is not a refusal of detections');
    const bad = await report(dev.deviceToken, {
      reportId: 'rep-times',
      detections: [
        {
          ...detection('later.batch.example', ['chat_pattern'], 1, now()),
          firstSeen: '2026-06-11T00:00:00.000Z',
        },
        { ...detection('https://ok.batch.example/path', ['chat_pattern']) },
      ],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.rejected.length, 2);
    assert.match(bad.body.rejected[0].message, /detections\[0\]\.firstSeen/);
    assert.match(bad.body.rejected[1].message, /detections\[1\]\.domain/);
    assert.equal((await services(a)).stats.totalServices, before);
    // the refused report id was not consumed
    const retry = await report(dev.deviceToken, {
      reportId: 'rep-times',
      detections: [detection('ok.batch.example', ['chat_pattern'])],
    });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.duplicate, false);
  });

  it('takes self-hosted services by IP address and one-label name, and one bad detection costs only itself', async () => {
    const dev = await newDevice(t, a);
    const res = await report(dev.deviceToken, {
      reportId: 'rep-selfhosted',
      detections: [
        detection('chatgpt.com', [], 3, now()),
        detection('10.0.0.5', ['streaming_response', 'request_shape'], 2, now()),
        detection('ollama', ['streaming_response'], 2, now()),
        detection('[FD00::5]', ['streaming_response', 'ai_headers'], 1, now()),
        { ...detection('bad.example', ['chat_pattern'], 1, now()), firstSeen: '2026-06-11T00:00:00.000Z' },
        detection('999.1.1.1', ['chat_pattern'], 1, now()),
      ],
    });
    assert.equal(res.status, 207, res.text);
    assert.equal(res.body.accepted, 4);
    assert.deepEqual(
      res.body.rejected.map((r: any) => [r.index, r.error]),
      [
        [4, 'invalid_request'],
        [5, 'invalid_request'],
      ],
    );
    assert.match(res.body.rejected[1].message, /detections\[5\]\.domain/);
    const list = await services(a);
    const ip = list.services.find((s: any) => s.domain === '10.0.0.5');
    assert.equal(ip.status, 'discovered');
    assert.equal(ip.riskLevel, 'high');
    assert.ok(list.services.some((s: any) => s.domain === 'ollama'));
    assert.ok(list.services.some((s: any) => s.domain === '[fd00::5]'));
    assert.ok(!list.services.some((s: any) => s.domain === 'bad.example'));
    // the applied part consumed the id: the same report again changes nothing
    const again = await report(dev.deviceToken, {
      reportId: 'rep-selfhosted',
      detections: [detection('10.0.0.5', ['streaming_response'], 2, now())],
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);
  });

  it('never creates a service in another organization', async () => {
    const devB = await newDevice(t, b);
    await report(devB.deviceToken, {
      reportId: 'rep-b',
      detections: [detection('only-b.example', ['ai_headers', 'chat_pattern'], 1, now())],
    });
    assert.equal((await services(a, '?search=only-b')).services.length, 0);
    assert.equal((await services(b, '?search=only-b')).services.length, 1);
    const bService = (await services(b, '?search=only-b')).services[0];
    const res = await t.request('PATCH', `/api/dashboard/shadow-ai/services/${bService.id}`, {
      cookie: await a.session('admin'),
      body: { status: 'blocked' },
    });
    assert.equal(res.status, 404);
  });
});

describe('status changes and the endpoint config', () => {
  it('a status change is audited and bumps the config version at once; the config carries the catalog version', async () => {
    const dev = await newDevice(t, a);
    await report(dev.deviceToken, {
      reportId: 'rep-cfg',
      detections: [detection('sneaky-llm.example', ['request_shape', 'streaming_response'], 1, now())],
    });
    const svc = (await services(a, '?search=sneaky')).services[0];
    const before = await config(dev.deviceToken);
    assert.equal(before.shadowAi.catalogVersion, t.ctx.shadowAi.catalogVersion);
    assert.ok(before.shadowAi.knownDomains.includes('chatgpt.com'));
    // each catalog domain with its category: the extension tokenizes by default only on prompt categories
    assert.equal(before.shadowAi.categories['chatgpt.com'], 'LLM Chat');
    assert.equal(before.shadowAi.categories['notion.so'], 'Writing');
    assert.ok(!before.shadowAi.blocked.includes('sneaky-llm.example'));
    const hb1 = await t.request('POST', '/api/v1/endpoint/heartbeat', { key: dev.deviceToken, body: {} });

    const res = await t.request('PATCH', `/api/dashboard/shadow-ai/services/${svc.id}`, {
      cookie: await a.session('admin'),
      body: { status: 'blocked' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.service.status, 'blocked');

    const hb2 = await t.request('POST', '/api/v1/endpoint/heartbeat', { key: dev.deviceToken, body: {} });
    assert.equal(hb2.body.configVersion, hb1.body.configVersion + 1);
    const after = await config(dev.deviceToken);
    assert.equal(after.configVersion, hb2.body.configVersion);
    assert.ok(after.shadowAi.blocked.includes('sneaky-llm.example'));

    const audit = await eventsOf(a.org.id, 'audit.shadow_ai_status');
    const last = JSON.parse(audit.at(-1)!.data);
    assert.equal(last.targetId, svc.id);
    assert.equal(last.from, 'discovered');
    assert.equal(last.to, 'blocked');
  });

  it('catalog decisions feed the config, and the services of the entry follow them', async () => {
    const dev = await newDevice(t, a);
    await report(dev.deviceToken, {
      reportId: 'rep-ds',
      detections: [detection('chat.deepseek.com', [], 1, now())],
    });
    const res = await t.request('PATCH', '/api/dashboard/shadow-ai/catalog/deepseek', {
      cookie: await a.session('admin'),
      body: { status: 'blocked' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.entry.status, 'blocked');
    assert.equal(res.body.entry.overridden, true);
    const cfg = await config(dev.deviceToken);
    assert.ok(cfg.shadowAi.blocked.includes('deepseek.com'));
    const svc = (await services(a, '?search=deepseek')).services[0];
    assert.equal(svc.status, 'blocked');
    assert.equal(svc.riskLevel, 'high');

    const own = await t.request('POST', '/api/dashboard/shadow-ai/catalog', {
      cookie: await a.session('owner'),
      body: {
        name: 'Corp LLM',
        domains: ['llm.corp.example'],
        category: 'Enterprise',
        dataResidency: 'EU',
        gdprStatus: 'eu',
        status: 'approved',
      },
    });
    assert.equal(own.status, 201, own.text);
    assert.match(own.body.entry.id, /^cat_/);
    const cat = await t.request('GET', '/api/dashboard/shadow-ai/catalog?search=corp%20llm', {
      cookie: await a.session('viewer'),
    });
    assert.equal(cat.body.total, 1);
    assert.equal(cat.body.version, t.ctx.shadowAi.catalogVersion);
    const withOwn = (await config(dev.deviceToken)).shadowAi;
    assert.ok(withOwn.allowed.includes('llm.corp.example'));
    assert.equal(withOwn.categories['llm.corp.example'], 'Enterprise');
    // B's catalog is untouched
    const catB = await t.request('GET', '/api/dashboard/shadow-ai/catalog?status=blocked', {
      cookie: await b.session('viewer'),
    });
    assert.equal(catB.body.total, 0);
    const del = await t.request('DELETE', '/api/dashboard/shadow-ai/catalog/deepseek', {
      cookie: await a.session('admin'),
    });
    assert.equal(del.status, 200);
    assert.ok(!(await config(dev.deviceToken)).shadowAi.blocked.includes('deepseek.com'));
  });
});

describe('statistics', () => {
  it('counts usage per day, service and user, and new discoveries', async () => {
    const c = await t.tenant({ name: 'C', plan: 'pro' });
    const dev = await t.ctx.endpoint.devices.register(c.org, { name: 'x' }, 'key_test');
    const yesterday = new Date(now().getTime() - 86_400_000);
    await t.ctx.shadowAi.report(c.org, dev.deviceId, {
      reportId: 's1',
      detections: [
        detection('claude.ai', [], 3, yesterday) as never,
        detection('odd.example', ['chat_pattern'], 2, now()) as never,
      ],
    });
    const res = await t.request('GET', '/api/dashboard/shadow-ai/stats?days=7', {
      cookie: await c.session('viewer'),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.byDay.length, 7);
    assert.equal(res.body.totals.usage, 5);
    // no device is bound to a user: no users, one device without one ("by 1 users" before)
    assert.equal(res.body.totals.users, 0);
    assert.equal(res.body.totals.unboundDevices, 1);
    assert.equal(res.body.totals.newDiscoveries, 2);
    const y = res.body.byDay.find((d: any) => d.day === yesterday.toISOString().slice(0, 10));
    assert.equal(y.usage, 3);
    assert.deepEqual([y.users, y.unboundDevices], [0, 1]);
    assert.equal(res.body.byService[0].domain, 'claude.ai');
    assert.deepEqual([res.body.byService[0].users, res.body.byService[0].unboundDevices], [0, 1]);
    assert.equal(res.body.byUser[0].user, `dev:${dev.deviceId}`);
    assert.deepEqual(
      res.body.newDiscoveries.map((d: any) => d.domain),
      ['odd.example'],
    );
  });

  it('counts a user once over their devices, and devices bound to no user apart from users', async () => {
    const e = await t.tenant({ name: 'E', plan: 'pro' });
    const user = await newUser(t, e);
    const register = (name: string, userId?: string) =>
      t.ctx.endpoint.devices.register(e.org, { name, ...(userId ? { userId } : {}) }, 'key_test');
    const devices = [
      await register('laptop', user.id),
      await register('desktop', user.id),
      await register('kiosk 1'),
      await register('kiosk 2'),
    ];
    for (const [i, d] of devices.entries())
      await t.ctx.shadowAi.report(e.org, d.deviceId, {
        reportId: `u${i}`,
        detections: [detection('claude.ai', [], 1, now()) as never],
      });
    const cookie = await e.session('viewer');
    const stats = await t.request('GET', '/api/dashboard/shadow-ai/stats?days=7', { cookie });
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual([stats.body.totals.users, stats.body.totals.unboundDevices], [1, 2]);
    assert.deepEqual([stats.body.byService[0].users, stats.body.byService[0].unboundDevices], [1, 2]);
    const claude = (await services(e)).services.find((s: any) => s.domain === 'claude.ai');
    assert.deepEqual([claude.usageCount, claude.uniqueUsers, claude.unboundDevices], [4, 1, 2]);
  });
});

describe('plans', () => {
  it('FREE shows the first 10 services; the 11th is stored but hidden, announced to nobody, and not actionable', async () => {
    const f = await t.tenant({ name: 'F', plan: 'business' });
    const dev = await newDevice(t, f);
    await t.ctx.orgs.updateOrg(f.org.id, { plan: 'free' });
    t.ctx.auth.forgetOrg(f.org.id);
    const hosts = Array.from({ length: 11 }, (_, i) => `svc${String(i).padStart(2, '0')}.free.example`);
    for (const [i, h] of hosts.entries()) {
      clock.advance(1000);
      const res = await report(dev.deviceToken, {
        reportId: `free-${i}`,
        detections: [detection(h, ['chat_pattern'], 1, now())],
      });
      assert.equal(res.status, 200, res.text);
    }
    const list = await services(f, '?perPage=100');
    assert.equal(list.services.length, 10);
    assert.equal(list.stats.totalServices, 10);
    assert.equal(list.stats.hiddenByPlan, 1);
    assert.equal(list.stats.planLimit, 10);
    assert.ok(!list.services.some((s: any) => s.domain === hosts[10]));
    assert.equal((await eventsOf(f.org.id, 'shadow_ai.discovered')).length, 10);
    const row = await t.ctx.storage.db
      .selectFrom('shadow_ai_services')
      .select('id')
      .where('org_id', '=', f.org.id)
      .where('domain', '=', hosts[10]!)
      .executeTakeFirstOrThrow();
    const res = await t.request('PATCH', `/api/dashboard/shadow-ai/services/${row.id}`, {
      cookie: await f.session('admin'),
      body: { status: 'blocked' },
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'plan_required');
    // An upgrade shows it, with its history.
    await t.ctx.orgs.updateOrg(f.org.id, { plan: 'pro' });
    t.ctx.auth.forgetOrg(f.org.id);
    const pro = await services(f, '?perPage=100');
    assert.equal(pro.services.length, 11);
    assert.equal(pro.stats.hiddenByPlan, 0);
  });
});

describe('the DEMO plan', () => {
  it('gives Business features for 30 days after creation, then plan_required', async () => {
    const d = await t.tenant({ name: 'D', plan: 'demo' });
    const dev = await newDevice(t, d);
    const hb = await t.request('POST', '/api/v1/endpoint/heartbeat', { key: dev.deviceToken, body: {} });
    assert.equal(hb.status, 200, 'endpoint (a Business feature) works on DEMO');
    assert.equal((await services(d)).stats.planLimit, 25);
    clock.advance(31 * 86_400_000);
    const late = await t.request('POST', '/api/v1/endpoint/heartbeat', { key: dev.deviceToken, body: {} });
    assert.equal(late.status, 403);
    assert.equal(late.body.error, 'plan_required');
    assert.match(late.body.message, /demo plan .* ended on/);
    const cookie = await d.newSession('owner').catch(() => '');
    const res = await t.request('GET', '/api/dashboard/shadow-ai/services', { cookie });
    assert.equal(res.status, 403, res.text);
  });
});

import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createEventWorkers, type EventWorkers } from '../../src/main/worker.js';
import { createWebhookDispatcher } from '../../src/modules/events/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { until } from '../support/until.js';

/**
 * One receiver's requests, each answered when the test says so: `held` requests stay open (as a receiver
 * that takes its time would) until `release()`; `gone` notes a request the sender gave up on.
 */
interface Receiver {
  url: string;
  /** Request bodies, in arrival order. */
  arrived: string[];
  held: http.ServerResponse[];
  gone: number;
  /** Answers from now on (held requests stay held until released). */
  answer: 'hold' | number;
  release(status?: number): void;
  close(): Promise<void>;
}

async function receiver(answer: 'hold' | number): Promise<Receiver> {
  const r: Omit<Receiver, 'url' | 'close'> & { url?: string } = {
    answer,
    arrived: [],
    held: [],
    gone: 0,
    release(status = 200) {
      for (const res of r.held.splice(0)) if (!res.writableEnded) res.writeHead(status).end('{}');
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      r.arrived.push(body);
      if (r.answer === 'hold') {
        r.held.push(res);
        res.on('close', () => {
          if (!res.writableEnded) r.gone++;
        });
      } else res.writeHead(r.answer).end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(r, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      r.release(200);
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  }) as Receiver;
}

let t: TestServer;
let clock: ManualClock;

before(async () => {
  // Receivers need no signature check here; the manual clock starts at real time all the same.
  clock = new ManualClock(new Date());
  t = await startTestServer({ clock });
});
after(async () => {
  await t.close();
});

async function hookFor(tenant: Tenant, url: string): Promise<string> {
  const res = await t.request('POST', '/api/webhooks', {
    cookie: await tenant.session('owner'),
    body: { url: `${url}/hook`, events: ['api_key.created'] },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
}

const publish = async (tenant: Tenant, n = 0) =>
  (await t.ctx.events.publishFor(t.ctx.storage.db, tenant.org.id, 'api_key.created', { n }))!.id;

const deliveryOf = (eventId: string) =>
  t.ctx.storage.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();

const attemptsOf = async (eventId: string) => {
  const d = await deliveryOf(eventId);
  return t.ctx.storage.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', d.id)
    .orderBy('attempt')
    .execute();
};

/** A delivery pool of its own on the test server's store and clock, sending through `workers`' client. */
const poolOf = (
  workers: EventWorkers,
  opts: { concurrency?: number; perEndpoint?: number; leaseMs?: number },
) =>
  createWebhookDispatcher({
    db: t.ctx.storage.db,
    dialect: t.ctx.storage.dialect,
    clock,
    sealer: t.ctx.sealer,
    outbound: workers.outbound,
    ...opts,
  });

describe('webhook delivery pool', () => {
  it("a receiver that holds its answer delays no other organization's delivery, nor its retry schedule", async () => {
    const slow = await receiver('hold');
    const fast = await receiver(200);
    const failing = await receiver(500);
    const workers: EventWorkers = createEventWorkers(t.ctx);
    const second = createEventWorkers(t.ctx);
    try {
      const orgA = await t.tenant({ name: 'Slow Receiver Ltd' });
      const orgB = await t.tenant({ name: 'Fast Receiver Ltd' });
      const orgC = await t.tenant({ name: 'Failing Receiver Ltd' });
      await hookFor(orgA, slow.url);
      await hookFor(orgB, fast.url);
      await hookFor(orgC, failing.url);
      await workers.start();

      const a = await publish(orgA);
      await until("org A's delivery to reach its receiver", () => slow.arrived.length === 1);
      // Another worker (process) does not take the delivery in flight.
      assert.equal(await second.dispatcher.runDue(), 0);

      const b = await publish(orgB);
      await until(
        "org B's delivery to be recorded delivered",
        async () => (await deliveryOf(b)).status === 'delivered',
      );
      assert.deepEqual(
        fast.arrived.map((x) => JSON.parse(x).id),
        [b],
      );
      // Org A's request is still open: B did not wait for it.
      assert.equal(slow.held.length, 1);
      assert.equal(slow.gone, 0);
      assert.equal((await deliveryOf(a)).status, 'sending');

      // A failing receiver's retries keep SPEC's schedule (0, +1 s, +5 s) while A still holds its request.
      const t0 = clock.now().getTime();
      const c = await publish(orgC);
      const iso = (ms: number) => new Date(t0 + ms).toISOString();
      await until('attempt 1 recorded', async () => (await attemptsOf(c)).length === 1);
      assert.equal((await deliveryOf(c)).next_attempt_at, iso(1_000));
      clock.advance(1_000);
      await until('attempt 2 recorded', async () => (await attemptsOf(c)).length === 2);
      assert.equal((await deliveryOf(c)).next_attempt_at, iso(6_000));
      clock.advance(5_000);
      await until('attempt 3 recorded', async () => (await attemptsOf(c)).length === 3);
      assert.deepEqual(
        (await attemptsOf(c)).map((x) => [x.attempt, x.started_at, x.response_code]),
        [
          [1, iso(0), 500],
          [2, iso(1_000), 500],
          [3, iso(6_000), 500],
        ],
      );
      assert.equal((await deliveryOf(c)).next_attempt_at, iso(36_000));
      assert.equal(failing.arrived.length, 3);
      assert.equal(slow.held.length, 1);
      assert.equal(slow.gone, 0);
      assert.equal(slow.arrived.length, 1, 'the delivery in flight was never sent twice');

      slow.release(200);
      await until(
        "org A's delivery to be recorded delivered",
        async () => (await deliveryOf(a)).status === 'delivered',
      );
      assert.equal(slow.arrived.length, 1);
    } finally {
      await second.close();
      slow.release(200);
      await workers.close();
      await Promise.all([slow.close(), fast.close(), failing.close()]);
    }
  });

  it('one endpoint never takes every slot: the others are sent while it holds its own', async () => {
    const slow = await receiver('hold');
    const fast = await receiver(200);
    const workers = createEventWorkers(t.ctx);
    const pool = poolOf(workers, { concurrency: 3, perEndpoint: 2 });
    try {
      const org = await t.tenant({ name: 'Backlog Ltd' });
      const other = await t.tenant({ name: 'Neighbour Ltd' });
      await hookFor(org, slow.url);
      await hookFor(other, fast.url);
      const backlog: string[] = [];
      for (let i = 0; i < 5; i++) backlog.push(await publish(org, i));
      clock.advance(1);
      const b = await publish(other);
      // Five due rows of the slow endpoint come first in due order; it gets its two slots, the neighbour the third.
      assert.equal(await pool.fill(), 3);
      await until(
        "the neighbour's delivery to be recorded delivered",
        async () => (await deliveryOf(b)).status === 'delivered',
      );
      assert.equal(slow.arrived.length, 2);
      const states = await Promise.all(backlog.map(async (id) => (await deliveryOf(id)).status));
      assert.deepEqual(states.sort(), ['pending', 'pending', 'pending', 'sending', 'sending']);
      // Its slot is free again, but the slow endpoint is at its bound: nothing more is taken for it.
      assert.equal(await pool.fill(), 0);
      // The receiver answers now: the rest of the backlog follows, two at a time.
      slow.answer = 200;
      slow.release(200);
      await pool.runDue();
      const done = await Promise.all(backlog.map(async (id) => (await deliveryOf(id)).status));
      assert.deepEqual(done, ['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
      assert.equal(new Set(slow.arrived.map((x) => JSON.parse(x).id)).size, 5, 'each event once');
    } finally {
      slow.release(200);
      await pool.close();
      await workers.close();
      await Promise.all([slow.close(), fast.close()]);
    }
  });
});

describe('webhook delivery lease', () => {
  it('a send that outlasts its lease is not claimed and sent again by the same process', async () => {
    const slow = await receiver('hold');
    const workers = createEventWorkers(t.ctx);
    const pool = poolOf(workers, { leaseMs: 15_000 });
    try {
      const org = await t.tenant({ name: 'Held Past Lease Ltd' });
      await hookFor(org, slow.url);
      const ev = await publish(org);
      assert.equal(await pool.fill(), 1);
      await until('the first send to reach the receiver', () => slow.arrived.length === 1);
      // The receiver still holds it when the lease ends: the row is due again by the database's rules.
      clock.advance(15_001);
      assert.equal((await deliveryOf(ev)).status, 'sending');
      assert.equal(await pool.fill(), 0, 'the delivery in flight here is not claimed again');
      slow.release(200);
      await until('the delivery to be recorded', async () => (await deliveryOf(ev)).status === 'delivered');
      await pool.runDue();
      assert.equal(slow.arrived.filter((x) => JSON.parse(x).id === ev).length, 1, 'one request for it');
      assert.equal((await attemptsOf(ev)).length, 1);
    } finally {
      slow.release(200);
      await pool.close();
      await workers.close();
      await slow.close();
    }
  });
});

describe('SIEM forwarding lanes', () => {
  it("an integration whose SIEM holds its answer delays no other integration's events", async () => {
    const slow = await receiver('hold');
    const fast = await receiver(200);
    const workers = createEventWorkers(t.ctx);
    const siemTo = async (tenant: Tenant, url: string) => {
      const res = await t.request('POST', '/api/saas/siem/integrations', {
        cookie: await tenant.session('owner'),
        body: { platform: 'WEBHOOK', name: 'collector', eventTypes: ['api_key.created'], config: { url } },
      });
      assert.equal(res.status, 201, res.text);
      return res.body.id as string;
    };
    const queued = async (integrationId: string) =>
      (
        await t.ctx.storage.db
          .selectFrom('siem_queue')
          .select('event_id')
          .where('integration_id', '=', integrationId)
          .where('status', '=', 'queued')
          .execute()
      ).length;
    try {
      const orgD = await t.tenant({ name: 'Slow SIEM Ltd' });
      const orgE = await t.tenant({ name: 'Fast SIEM Ltd' });
      const slowSiem = await siemTo(orgD, `${slow.url}/collect`);
      const fastSiem = await siemTo(orgE, `${fast.url}/collect`);
      await workers.start();
      const d = await publish(orgD);
      await until("org D's event to reach its SIEM", () => slow.arrived.length === 1);
      const e = await publish(orgE);
      await until(
        "org E's event to leave its queue",
        async () => (await queued(fastSiem)) === 0 && fast.arrived.length > 0,
      );
      assert.ok(
        fast.arrived.some((x) => x.includes(e)),
        'org E event sent',
      );
      // Org D's request is still open: E did not wait for it.
      assert.equal(slow.held.length, 1);
      assert.equal(slow.gone, 0);
      assert.ok(slow.arrived[0]?.includes(d));
      assert.equal(await queued(slowSiem), 1);
      slow.answer = 200;
      slow.release(200);
      await until("org D's event to leave its queue", async () => (await queued(slowSiem)) === 0);
    } finally {
      slow.release(200);
      await workers.close();
      await Promise.all([slow.close(), fast.close()]);
    }
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { enroll, enrollByHand, startUp } from '../src/background/enroll.js';
import { MANAGED_REFUSAL } from '../src/background/unenroll.js';
import { deferred, perTest } from './worker-chrome.js';

// Enrolling the device: the deployment's guard, two enrollments at once, and the start-up. The server's
// answers are released by hand, so the order of the race is the test's.

const SERVER = 'https://parapet.test';
const OTHER = 'https://other.test';
const code = (c: string) => `enr_${c.repeat(32)}`;
const MANAGED = { serverUrl: SERVER, enrollmentCode: code('m') };

// chrome.storage.managed of every test: empty unless a test fills it (and empties it again).
const managed: Record<string, unknown> = {};
const t = perTest(
  () => ({}),
  () => managed,
);

before(() => {
  // What enroll() reads of the browser besides storage (Node 20 has no navigator).
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0' },
    configurable: true,
  });
});

function withRuntime(): void {
  const c = globalThis.chrome as unknown as Record<string, unknown>;
  c['runtime'] = { getManifest: () => ({ version: '9.9.9' }) };
}

interface Sent {
  url: string;
  token: string | null;
  body: Record<string, unknown>;
}

/**
 * The server: an enroll answers the device of `devices[code]` (once `gates[code]` is released, when one is
 * set); an unenroll answers 200. Every request is recorded in `sent`.
 */
function serve(
  devices: Record<string, { deviceId: string; deviceToken: string; organizationId: string }>,
  gates: Record<string, Promise<void>> = {},
): Sent[] {
  const sent: Sent[] = [];
  globalThis.fetch = (async (url: string | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    const token = new Headers(init?.headers).get('authorization');
    sent.push({ url: String(url), token, body });
    if (String(url).endsWith('/api/v1/endpoint/enroll')) {
      const c = String(body['code']);
      await gates[c];
      return Response.json({ ...devices[c], heartbeatIntervalSeconds: 60 }, { status: 201 });
    }
    return Response.json({ status: 'revoked' });
  }) as typeof fetch;
  return sent;
}

describe('enrollment by hand on a device its deployment enrolls', () => {
  it('is refused while the managed enrollment holds no token yet (server unreachable at start, after a reset)', async () => {
    Object.assign(managed, MANAGED);
    try {
      withRuntime();
      const sent = serve({
        [code('h')]: { deviceId: 'dev_h', deviceToken: 'dt_h', organizationId: 'org_x' },
      });
      await assert.rejects(enrollByHand(OTHER, code('h')), { message: MANAGED_REFUSAL });
      assert.deepEqual(sent, [], 'the hand enrollment reached a server');
      assert.equal(t.storage['deviceToken'], undefined);
      // the deployment's own path still enrolls
      serve({ [code('m')]: { deviceId: 'dev_m', deviceToken: 'dt_m', organizationId: 'org_a' } });
      await enroll(SERVER, code('m'));
      assert.equal(t.storage['deviceToken'], 'dt_m');
    } finally {
      for (const k of Object.keys(managed)) delete managed[k];
    }
  });
});

describe('two enrollments at once', () => {
  const cases: Array<[string, string, string, Record<string, unknown>]> = [
    ['in the same organization', SERVER, 'org_a', { reason: 'replaced', replacedBy: 'dev_2' }],
    ['in another organization', SERVER, 'org_b', { reason: 'user' }],
    ['on another server', OTHER, 'org_a', { reason: 'user' }],
  ];
  for (const [name, server2, org2, retirement] of cases) {
    it(`${name}: the first to land stays, and the other retires the device it created and says so`, async () => {
      withRuntime();
      const gate = deferred();
      const sent = serve(
        {
          [code('a')]: { deviceId: 'dev_1', deviceToken: 'dt_1', organizationId: 'org_a' },
          [code('b')]: { deviceId: 'dev_2', deviceToken: 'dt_2', organizationId: org2 },
        },
        { [code('a')]: gate.promise },
      );
      const slow = enroll(SERVER, code('a'));
      // the other enrollment (a second options page, the managed configuration) lands meanwhile
      await enroll(server2, code('b'));
      assert.equal(t.storage['deviceToken'], 'dt_2');
      gate.resolve();
      await assert.rejects(slow, /another enrollment/i);
      assert.equal(t.storage['deviceToken'], 'dt_2', 'the later answer replaced the enrollment that landed');
      assert.equal(t.storage['deviceId'], 'dev_2');
      assert.equal(t.storage['organizationId'], org2);
      const retired = sent.filter((s) => s.url.endsWith('/api/v1/endpoint/unenroll'));
      assert.deepEqual(
        retired.map((s) => [s.url, s.token, s.body]),
        [[`${SERVER}/api/v1/endpoint/unenroll`, 'Bearer dt_1', retirement]],
        'the device the losing enrollment created stays active on the server',
      );
    });
  }
});

describe('start-up', () => {
  it('runs the managed enrollment even when the block rules cannot be applied, and records why', async () => {
    t.worker.beforePolicyCall = async () => {
      throw new Error('rules quota');
    };
    let enrolled = false;
    await startUp(async () => {
      enrolled = true;
    });
    assert.equal(enrolled, true, 'the managed enrollment did not run');
    assert.match(String(t.storage['lastError']), /rules quota/);
  });
});

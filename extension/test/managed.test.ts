import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Rig, startRig, unpackedExtensionId } from './browser.js';
import { startTestServer, type Tenant, type TestServer } from './server.js';

// Silent enrollment by enterprise policy: the administrator's policy file gives the extension its managed
// configuration (chrome.storage.managed, schema extension/managed_schema.json); nobody opens the options
// page. Chromium reads the policy from /etc/chromium/policies/managed/, which needs root (browser.ts stops
// with the command to run otherwise).

let server: TestServer;
let tenant: Tenant;
let cookie: string;
let code: string;
let rig: Rig;

before(async () => {
  server = await startTestServer();
  tenant = await server.tenant({ plan: 'enterprise' });
  cookie = await tenant.session('owner');
  const link = await server.request('POST', '/api/dashboard/endpoint/enrollment', {
    cookie,
    body: { maxUses: 5 },
  });
  assert.equal(link.status, 201, link.text);
  code = link.body.code;
  rig = await startRig({
    managed: { serverUrl: server.url, enrollmentCode: code, deviceName: 'Fleet laptop 17' },
  });
});
after(async () => {
  await rig?.close();
  await server?.close();
});

describe('enrollment by enterprise policy (chrome.storage.managed)', () => {
  it('the policy reaches the extension under the id Chromium gave it', async () => {
    assert.equal(rig.extensionId, unpackedExtensionId(rig.build.dirs.chrome));
    const managed = await rig.worker.evaluate(() => chrome.storage.managed.get(null));
    assert.deepEqual(managed, { serverUrl: server.url, enrollmentCode: code, deviceName: 'Fleet laptop 17' });
  });

  it('the device enrolls without any user action and fetches its policy', async () => {
    const end = Date.now() + 30_000;
    let stored: Record<string, unknown> = {};
    while (Date.now() < end) {
      stored = await rig.worker.evaluate(() =>
        chrome.storage.local.get(['deviceToken', 'deviceId', 'organizationId', 'configVersion']),
      );
      if (stored['deviceToken'] && stored['configVersion'] !== undefined) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.match(String(stored['deviceToken']), /^dt_live_/);
    assert.equal(stored['organizationId'], tenant.org.id);
    const list = await server.request('GET', '/api/dashboard/endpoint', { cookie });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.devices.total, 1);
    assert.equal(list.body.devices.items[0].name, 'Fleet laptop 17');
    assert.equal(list.body.devices.items[0].id, stored['deviceId']);
  });

  it("the person at the device cannot leave the deployment's enrollment: the options page offers no unenrolling, the worker refuses it and enrolling by hand", async () => {
    const before = await rig.worker.evaluate(() => chrome.storage.local.get(['deviceToken', 'deviceId']));
    assert.match(String(before['deviceToken']), /^dt_live_/);
    const page = await rig.context.newPage();
    await page.goto(`chrome-extension://${rig.extensionId}/options.html`);
    await page.waitForFunction(() =>
      /Enrolled as/.test(document.getElementById('result')?.textContent ?? ''),
    );
    // No button that could only lead to the refusal (before, it was offered): the page says why.
    assert.equal(await page.isHidden('#unenroll'), true, 'the unenroll button is offered');
    assert.equal(
      await page.textContent('#unenroll-note'),
      "Your organization's deployment enrolled this device: only an administrator can remove its enrollment.",
    );
    await page.close();
    // asked anyway (a script, an older page): the worker refuses
    const left = await rig.message<{ error?: string }>({ kind: 'unenroll' });
    assert.match(String(left.error), /enrolled by your organization's deployment/);
    const link = await server.request('POST', '/api/dashboard/endpoint/enrollment', { cookie, body: {} });
    const moved = await rig.message<{ error?: string }>({
      kind: 'enroll',
      serverUrl: server.url,
      code: link.body.code,
    });
    assert.match(String(moved.error), /enrolled by your organization's deployment/);
    const after = await rig.worker.evaluate(() => chrome.storage.local.get(['deviceToken', 'deviceId']));
    assert.deepEqual(after, before);
    const list = await server.request('GET', '/api/dashboard/endpoint?status=active', { cookie });
    assert.deepEqual(
      list.body.devices.items.map((d: { id: string }) => d.id),
      [before['deviceId']],
    );
  });

  it('the popup shows the device enrolled in the organization', async () => {
    const page = await rig.context.newPage();
    await page.goto(`chrome-extension://${rig.extensionId}/popup.html`);
    await page.waitForFunction(() => /Enrolled/.test(document.body.textContent ?? ''));
    assert.match((await page.textContent('body')) ?? '', new RegExp(`Organization${tenant.org.name}`));
    await page.close();
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Role } from '../../src/modules/plans/index.js';
import { newDevice } from '../support/endpoint-cases.js';
import type { Tenant, TestServer } from '../support/harness.js';
import { newProof } from '../support/proofs-cases.js';
import { startWebhookFake } from '../receivers/webhook-fake.js';
import {
  assertAccessible,
  dashboardUsers,
  screenshot,
  signIn,
  startDashboardFixture,
  visit as visitPage,
} from './browser.js';

// The administration pages added for the endpoint backend and reports (docs/dashboard.md), in a real browser
// against a real server: what an administrator does there reaches the API, and a member only reads.

let t: TestServer;
let browser: Browser;
let acme: Tenant;
let users = new Map<Role, { email: string; password: string }>();
const consoleErrors: string[] = [];

before(async () => {
  ({
    t,
    tenant: acme,
    users,
    browser,
  } = await startDashboardFixture('Acme Endpoint', 'endpoint.acme.example', ['owner', 'member']));
});

after(async () => {
  await browser?.close();
  await t?.close();
});

const signedIn = (role: Role): Promise<{ context: BrowserContext; page: Page }> =>
  signIn(browser, t.url, users.get(role)!, consoleErrors);
const visit = (page: Page, path: string, title: string) => visitPage(page, t.url, path, title);

describe('endpoint, DNS and report pages in Chromium', () => {
  it('lists enrolled devices with their status, and an owner revokes one', async () => {
    for (const name of ['laptop-anna', 'laptop-ben']) {
      const r = await t.request('POST', '/api/v1/endpoint/register', {
        key: acme.al,
        body: { name, os: 'Windows 11', browser: 'Chrome 131', extensionVersion: '1.2.0' },
      });
      assert.equal(r.status, 201, r.text);
    }
    const { context, page } = await signedIn('owner');
    await visit(page, '/devices', 'Endpoint devices');
    await page.getByRole('cell', { name: /^laptop-anna/ }).waitFor();
    await page.getByRole('cell', { name: /^laptop-ben/ }).waitFor();
    assert.match((await page.locator('.card').first().textContent()) ?? '', /Endpoints\s*2/);
    await assertAccessible(page, 'endpoint devices');
    await screenshot(page, 'devices');
    await page.getByRole('button', { name: 'Revoke laptop-ben' }).click();
    await page
      .getByRole('row', { name: /laptop-ben/ })
      .getByText('revoked')
      .waitFor();
    const revoked = await t.request('GET', '/api/dashboard/endpoint?status=revoked', {
      cookie: await acme.session('viewer'),
    });
    assert.deepEqual(
      revoked.body.devices.items.map((d: { name: string }) => d.name),
      ['laptop-ben'],
    );
    // settings are validated before they are posted, and saved when right
    await page.getByLabel('Heartbeat interval (seconds)').fill('5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    assert.equal(
      await page.locator('.field-error').first().textContent(),
      'A whole number of seconds from 30 to 3600.',
    );
    await page.getByLabel('Heartbeat interval (seconds)').fill('120');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/dashboard/endpoint/settings') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Save settings' }).click();
    assert.equal((await saved).status(), 200);
    // whether users may unenroll their own devices (on by default) is set here too
    const unenroll = page.getByLabel(/Users may unenroll their own devices/);
    assert.equal(await unenroll.isChecked(), true);
    await unenroll.uncheck();
    const savedAgain = page.waitForResponse(
      (r) => r.url().endsWith('/api/dashboard/endpoint/settings') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Save settings' }).click();
    assert.equal((await savedAgain).status(), 200);
    const stored = await t.request('GET', '/api/dashboard/endpoint/settings', {
      cookie: await acme.session('viewer'),
    });
    assert.equal(stored.body.allowUserUnenroll, false);
    assert.equal(stored.body.heartbeatIntervalSeconds, 120);
    await context.close();
  });

  it('creates an enrollment link whose code is shown once and enrolls a device', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/enrollment', 'Enrollment links');
    await page.getByLabel('New group').fill('Finance');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('cell', { name: /Finance/ }).waitFor();
    await page.getByLabel('Uses').fill('0');
    await page.getByRole('button', { name: 'Create link' }).click();
    assert.equal(
      await page.locator('.field-error').first().textContent(),
      'A whole number from 1 to 100,000.',
    );
    await page.getByLabel('Name (optional)').fill('wave 1');
    await page.getByLabel('Uses').fill('2');
    await page.getByLabel('Group (optional)').selectOption({ label: 'Finance' });
    await page.getByRole('button', { name: 'Create link' }).click();
    const code = (await page.getByTestId('secret').textContent()) ?? '';
    assert.ok(code.length >= 10, code);
    await page.getByRole('cell', { name: 'wave 1', exact: true }).waitFor();
    await assertAccessible(page, 'enrollment');
    await screenshot(page, 'enrollment');
    const enrolled = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code, name: 'laptop-carla' },
    });
    assert.equal(enrolled.status, 201, enrolled.text);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await page
      .getByRole('row', { name: /wave 1/ })
      .getByText('1 / 2')
      .waitFor();
    assert.equal(await page.getByTestId('secret').count(), 0, 'the code is gone once left');
    await context.close();
  });

  it('edits policies with scope pickers and domain lists, validated before posting', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/policies', 'Endpoint policies');
    await page.getByText('No policy yet').waitFor();
    await page.getByRole('button', { name: 'New policy' }).click();
    await page.getByRole('button', { name: 'Create policy' }).click();
    assert.equal(await page.locator('.field-error').first().textContent(), 'Give the policy a name.');
    await page.getByLabel('Name', { exact: true }).fill('No unapproved AI');
    await page.getByLabel('Mode').selectOption('allowlist');
    await page.getByLabel('Allowed services (one host per line)').fill('chatgpt.com\nclaude..ai');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByText('"claude..ai" is not a host name').waitFor();
    await page.getByLabel('Allowed services (one host per line)').fill('chatgpt.com\n*.claude.ai');
    await page.getByRole('checkbox', { name: 'IBAN' }).check();
    await page.getByRole('checkbox', { name: /Block pasting/ }).check();
    await page.getByLabel('Enforcement').selectOption('block');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('cell', { name: 'No unapproved AI', exact: true }).waitFor();
    const stored = await t.request('GET', '/api/dashboard/endpoint/policies', {
      cookie: await acme.session('owner'),
    });
    const policy = stored.body.policies[0];
    assert.equal(policy.enforcement, 'block');
    assert.deepEqual(policy.scope, { type: 'organization', targets: [acme.org.id] });
    assert.deepEqual(
      policy.rules.aiServices.allowed.map((a: { domain: string }) => a.domain),
      ['chatgpt.com', '*.claude.ai'],
    );
    assert.deepEqual(policy.rules.dataProtection.blockCopyPaste, { enabled: true, patterns: ['IBAN'] });
    // left untouched, the warning before a risky send is the extension's built-in one (on at 50), so a
    // device enrolled under this policy is not less strict than one never enrolled
    assert.deepEqual(policy.rules.dataProtection.warnBeforeSubmit, { enabled: true, threshold: 50 });
    // the editor opens with what is stored, and a group scope needs a group
    await page.getByRole('button', { name: 'Edit No unapproved AI' }).click();
    assert.equal(
      await page.getByLabel('Allowed services (one host per line)').inputValue(),
      'chatgpt.com\n*.claude.ai',
    );
    await page.getByLabel('Applies to').selectOption('group');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByText('Choose at least one group.').waitFor();
    await assertAccessible(page, 'policies');
    await screenshot(page, 'policies');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('saves the DNS filtering configuration and offers its exports', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/dns', 'DNS filtering');
    await page.getByText('No DNS filtering configured yet').waitFor();
    await page.getByLabel('Blocked AI domains (one per line)').fill('chat.deepseek.com\nbad domain');
    await page.getByLabel('Contact e-mail').fill('it@acme.example');
    await page.getByRole('button', { name: 'Save DNS filtering' }).click();
    await page.getByText('"bad domain" is not a host name').waitFor();
    await page.getByLabel('Blocked AI domains (one per line)').fill('chat.deepseek.com\n*.character.ai');
    await page.getByRole('button', { name: 'Save DNS filtering' }).click();
    await page.getByRole('link', { name: /RPZ zone/ }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: /hosts file/ }).click();
    const file = await (await download).path();
    assert.match(readFileSync(file, 'utf8'), /chat\.deepseek\.com/);
    await assertAccessible(page, 'DNS filtering');
    await screenshot(page, 'dns');
    await context.close();
  });

  it('generates a report and downloads it as PDF, CSV and JSON', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/reports', 'Reports');
    await page.getByText('No report yet.').waitFor();
    await page.getByLabel('Period').selectOption('range');
    await page.getByRole('button', { name: 'Generate' }).click();
    assert.equal(await page.locator('.field-error').first().textContent(), 'Choose the first day.');
    await page.getByLabel('Period').selectOption('7d');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('link', { name: /^PDF/ }).first().waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: /^PDF/ }).first().click();
    const pdf = readFileSync(await (await download).path());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    await assertAccessible(page, 'reports');
    await screenshot(page, 'reports');
    await context.close();
  });

  it('shows the shadow-AI radar and an owner blocks a discovered service', async () => {
    const dev = await newDevice(t, acme, 'radar-laptop');
    const now = new Date().toISOString();
    const reported = await t.request('POST', '/api/v1/endpoint/shadow-ai/report', {
      key: dev.deviceToken,
      body: {
        reportId: 'rep-browser-1',
        detections: [
          { domain: 'chatgpt.com', count: 6, firstSeen: now, lastSeen: now },
          {
            domain: 'mystery-ai.example',
            signals: ['streaming_response', 'chat_pattern'],
            count: 3,
            firstSeen: now,
            lastSeen: now,
          },
        ],
      },
    });
    assert.equal(reported.status, 200, reported.text);
    const { context, page } = await signedIn('owner');
    await visit(page, '/shadow-ai', 'Shadow-AI radar');
    // the services table's row (the usage breakdown names the domain too)
    const serviceRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: /mystery-ai\.example/ }) });
    await serviceRow.getByText('discovered', { exact: true }).waitFor();
    await serviceRow.getByText(/streaming_response/).waitFor();
    // the reporting device is bound to no user: counted as such, not as one user ("by 1 users" before)
    await serviceRow.getByText('3 · 0 users · 1 device without a user', { exact: true }).waitFor();
    await page.getByText('by 0 users · 1 device without a user', { exact: true }).waitFor();
    await assertAccessible(page, 'shadow-AI radar');
    await screenshot(page, 'shadow-ai');
    await page.getByRole('button', { name: 'Block mystery-ai.example' }).click();
    await page
      .getByRole('row', { name: /mystery-ai\.example/ })
      .getByText('blocked', { exact: true })
      .waitFor();
    const stored = await t.request('GET', '/api/dashboard/shadow-ai/services?status=blocked', {
      cookie: await acme.session('viewer'),
    });
    assert.deepEqual(
      stored.body.services.map((x: { domain: string }) => x.domain),
      ['mystery-ai.example'],
    );
    // the catalog shows its version and takes the organization's decision
    await page.getByLabel('Search the catalog').fill('claude');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const select = page.getByRole('combobox', { name: /^Status of Claude/ }).first();
    await select.selectOption('approved');
    await page.getByText('(changed)').first().waitFor();
    await context.close();
  });

  it('lists uploaded proofs, by device too, downloads one and deletes it', async () => {
    const proof = await newProof(t, acme);
    const other = await newProof(t, acme);
    const { context, page } = await signedIn('owner');
    await visit(page, '/proofs', 'Proofs');
    await page.getByRole('cell', { name: new RegExp(`^${other.id}`) }).waitFor();
    // the proofs of one device
    await page.getByLabel('Device id').fill(proof.deviceId);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(new RegExp(`device=${proof.deviceId}`));
    await page.getByRole('cell', { name: new RegExp(`^${other.id}`) }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: new RegExp(`^${proof.id}`) }).waitFor();
    // a device id this organization does not have: the server's 404 body
    await page.getByLabel('Device id').fill('dev_none');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').filter({ hasText: '404 not_found' }).waitFor();
    await page.getByLabel('Device id').fill(proof.deviceId);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('cell', { name: new RegExp(`^${proof.id}`) }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: `Download ${proof.id}` }).click();
    const pdf = readFileSync(await (await download).path());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    await assertAccessible(page, 'proofs');
    await screenshot(page, 'proofs');
    await page.getByRole('button', { name: `Delete ${proof.id}` }).click();
    await page.getByText('No proof from this device.').waitFor();
    await context.close();
  });

  it('pages a long list, shows the server error body when a list cannot load, and signs out', async () => {
    const paged = await t.tenant({ name: 'Paged fleet' });
    const owner = (await dashboardUsers(t, paged, 'paged.example', ['owner'])).get('owner')!;
    for (let i = 1; i <= 21; i++) {
      await t.ctx.endpoint.devices.register(
        paged.org,
        { name: `pc-${String(i).padStart(2, '0')}` },
        'key_test',
      );
    }
    const { context, page } = await signIn(browser, t.url, owner, consoleErrors);
    // the loading state, held open by keeping the device list's answer back until it has been seen
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/api\/dashboard\/endpoint\?/, async (route) => {
      await held;
      await route.continue();
    });
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Endpoint devices', exact: true })
      .click();
    await page.getByRole('status').filter({ hasText: 'Loading…' }).first().waitFor();
    const answered = page.waitForResponse(/\/api\/dashboard\/endpoint\?/);
    release();
    await answered;
    await page.unroute(/\/api\/dashboard\/endpoint\?/);
    await visit(page, '/devices', 'Endpoint devices');
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText('Page 1 of 2 (21 in all)').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/\/devices\?page=2$/);
    await pager.getByText('Page 2 of 2 (21 in all)').waitFor();
    assert.equal(await pager.getByRole('button', { name: 'Next' }).isDisabled(), true);
    await assertAccessible(page, 'endpoint devices, page 2');

    // a list the server refuses to answer shows its error body (message, status, code, request id)
    await page.goto(`${t.url}/devices?status=sleeping`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /status.*\(400 invalid_request, request req_/s);

    const cookie = (await context.cookies()).find((c) => c.name === 'parapet_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await page.goto(`${t.url}/devices`);
    await page.waitForURL(/\/login\?next=%2Fdevices/);
    const after = await t.request('GET', '/api/dashboard/endpoint', {
      cookie: `${cookie.name}=${cookie.value}`,
    });
    assert.equal(after.status, 401, 'the session ended on the server too');
    await context.close();
  });

  it('adds a SIEM integration through its platform form, tests it against a receiver and disables it', async () => {
    const receiver = await startWebhookFake();
    try {
      const { context, page } = await signedIn('owner');
      await visit(page, '/siem', 'SIEM integrations');
      await page.getByText('No SIEM integration yet.').waitFor();
      await page.getByLabel('Platform').selectOption({ label: 'Webhook (JSON)' });
      await page.getByRole('button', { name: 'Add integration' }).click();
      await page.getByText('Name the integration.').waitFor();
      await page.getByText('Endpoint URL is required.').waitFor();
      await page.getByLabel('Name', { exact: true }).fill('SOC webhook');
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}/siem`);
      await page.getByRole('button', { name: 'Add integration' }).click();
      const row = page.getByRole('row', { name: /SOC webhook/ });
      await row.getByText('closed').waitFor();
      assert.match((await row.textContent()) ?? '', /0 \/ \d+/, 'queue depth against its limit');
      await page.getByRole('button', { name: 'Test SOC webhook' }).click();
      const status = page.getByRole('status').filter({ hasText: 'SOC webhook' });
      await status.waitFor();
      assert.match((await status.textContent()) ?? '', /^SOC webhook: accepted \(2\d\d\) in \d+ ms\.$/);
      assert.ok(receiver.requests.length >= 1, 'the receiver got the test event');
      await assertAccessible(page, 'SIEM integrations');
      await row.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('row', { name: /SOC webhook \(disabled\)/ }).waitFor();
      await context.close();
    } finally {
      await receiver.close();
    }
  });

  it('saves detection thresholds, stores and removes a provider key, and revokes an expiring API key', async () => {
    const { context, page } = await signedIn('owner');
    const owner = await acme.session('owner');

    await visit(page, '/settings', 'Detection and DLP');
    const detection = page.getByRole('form', { name: 'Detection settings' });
    await detection.getByLabel('Log from').fill('80');
    await detection.getByLabel('Warn from').fill('50');
    await detection.getByRole('button', { name: 'Save detection settings' }).click();
    await detection.getByText('Thresholds must rise: log ≤ warn ≤ block.').waitFor();
    await detection.getByLabel('Log from').fill('30');
    await detection.getByLabel('Block from').fill('85');
    await detection.getByRole('button', { name: 'Save detection settings' }).click();
    await detection.getByText('Saved.').waitFor();
    const thresholds = await t.request('GET', '/api/dashboard/detection/settings', { cookie: owner });
    assert.deepEqual(thresholds.body.thresholds, { log: 30, warn: 50, block: 85 });

    await visit(page, '/providers', 'Provider keys');
    const store = page.getByRole('form', { name: 'Store a provider key' });
    await store.getByLabel('Provider', { exact: true }).selectOption('openai');
    await store.getByRole('button', { name: 'Save key' }).click();
    await store.getByText("Paste the provider's API key.").waitFor();
    await store.getByLabel('API key').fill('sk-browser-test-key-7777');
    await store.getByRole('button', { name: 'Save key' }).click();
    const openai = page.getByRole('row', { name: /^openai/ });
    await openai.getByText(/^…/).waitFor();
    assert.doesNotMatch((await page.content()) ?? '', /sk-browser-test-key/, 'the key is never shown again');
    await openai.getByRole('button', { name: 'Remove openai key' }).click();
    await openai.getByText('not set').waitFor();

    await visit(page, '/keys', 'API keys');
    await page.getByLabel('Name', { exact: true }).fill('expiring key');
    await page.getByLabel('Expires on (optional)').fill('2020-01-31');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('The expiry must be in the future.').waitFor();
    await page.getByLabel('Expires on (optional)').fill('2030-01-31');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('secret').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /expiring key/ });
    await row.getByText('2030-01-31', { exact: false }).waitFor();
    await row.getByRole('button', { name: 'Revoke expiring key' }).click();
    await row.getByText('revoked', { exact: true }).waitFor();
    await context.close();
  });

  it('renames the organization, checked before posting', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/organization', 'Organization');
    await page.getByLabel('Organization name').fill('  ');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Enter a name.').waitFor();
    await page.getByLabel('Organization name').fill('Acme Endpoint Europe');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('row', { name: /^Name Acme Endpoint Europe$/ }).waitFor();
    await assertAccessible(page, 'organization');
    const owner = await acme.session('owner');
    const stored = await t.request('GET', '/api/dashboard/organization', { cookie: owner });
    assert.equal(stored.body.name, 'Acme Endpoint Europe');
    await t.request('PATCH', '/api/dashboard/organization', {
      cookie: owner,
      body: { name: 'Acme Endpoint' },
    });
    await context.close();
  });

  it('lets a member read the endpoint pages but not change them', async () => {
    const { context, page } = await signedIn('member');
    for (const [path, title] of [
      ['/devices', 'Endpoint devices'],
      ['/enrollment', 'Enrollment links'],
      ['/policies', 'Endpoint policies'],
      ['/dns', 'DNS filtering'],
    ] as const) {
      await visit(page, path, title);
      await page.getByText('Only owners and admins can change this').waitFor();
      await assertAccessible(page, `${title} (member)`);
    }
    assert.equal(await page.getByRole('button', { name: 'Save DNS filtering' }).count(), 0);
    await visit(page, '/policies', 'Endpoint policies');
    assert.equal(await page.getByRole('button', { name: 'New policy' }).count(), 0);
    await context.close();
    assert.deepEqual(
      consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e)),
      [],
      'no CSP violation',
    );
  });
});

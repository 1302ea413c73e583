import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureWebBuilt } from '../../scripts/build-web.js';
import { createEventWorkers } from '../../src/main/worker.js';
import type { Role } from '../../src/modules/plans/index.js';
import { startGatewayServer } from '../api/gateway-support.js';
import type { FakeProviderServer } from '../fakes/provider-server.js';
import { type WebhookFake, startWebhookFake } from '../receivers/webhook-fake.js';
import type { Tenant, TestServer } from '../support/harness.js';
import {
  assertAccessible,
  dashboardUsers,
  launchChromium,
  screenshot,
  signIn,
  visit as visitPage,
} from './browser.js';

let t: TestServer;
let fake: FakeProviderServer;
let hooks: WebhookFake;
let browser: Browser;
let acme: Tenant;
let users = new Map<Role, { email: string; password: string }>();
/** Messages the page wrote to the console as errors (a CSP violation is one). */
const consoleErrors: string[] = [];

before(async () => {
  ensureWebBuilt();
  ({ t, fake } = await startGatewayServer());
  hooks = await startWebhookFake();
  acme = await t.tenant({ name: 'Acme' });
  users = await dashboardUsers(t, acme, 'acme.example', ['owner', 'admin', 'member']);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await hooks?.close();
  await fake?.close();
  await t?.close();
});

function signedIn(role: Role): Promise<{ context: BrowserContext; page: Page }> {
  return signIn(browser, t.url, users.get(role)!, consoleErrors);
}

function visit(page: Page, path: string, heading: string): Promise<void> {
  return visitPage(page, t.url, path, heading);
}

describe('the dashboard in Chromium', () => {
  it('shows the sign-in page first, refuses a wrong password with the server message, then signs in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('401')) consoleErrors.push(m.text());
    });
    await page.goto(`${t.url}/keys`);
    await page.waitForURL(/\/login\?next=%2Fkeys/);
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.equal(
      await page.locator('.field-error').first().textContent(),
      'Enter the e-mail address of your account.',
    );
    await page.getByLabel('E-mail').fill(users.get('owner')!.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /401 unauthorized/);
    await assertAccessible(page, 'sign-in');
    await screenshot(page, 'login');
    await page.getByLabel('Password').fill(users.get('owner')!.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/keys`);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'parapet_session');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(session?.sameSite, 'Strict');
    await context.close();
  });

  it('creates an API key and shows its secret once, with a copy button', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/keys', 'API keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    assert.equal(
      await page.locator('.field-error').first().textContent(),
      'Give the key a name, e.g. the application that uses it.',
    );
    await page.getByLabel('Name').fill('browser test key');
    await page.getByLabel('Kind').selectOption('al');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    assert.match(secret, /^al_live_/);
    assert.ok(await page.getByRole('button', { name: 'Copy' }).isVisible());
    await page.getByRole('cell', { name: 'browser test key', exact: true }).waitFor();
    await assertAccessible(page, 'API keys');
    await screenshot(page, 'keys');
    // the key works, and the secret is gone for good once the page is left
    const detect = await t.request('POST', '/api/v1/detect', { key: secret, body: { text: 'hello' } });
    assert.equal(detect.status, 200);
    await page.reload();
    await page.getByRole('cell', { name: 'browser test key', exact: true }).waitFor();
    assert.equal(await page.getByTestId('secret').count(), 0);
    assert.doesNotMatch(await page.content(), new RegExp(secret));
    const storage = await page.evaluate('({ local: localStorage.length, session: sessionStorage.length })');
    assert.deepEqual(storage, { local: 0, session: 0 }, 'nothing kept in web storage');
    await context.close();
  });

  it('lets an admin switch force mode, and shows it read-only to a member whose switch is refused', async () => {
    const admin = await signedIn('admin');
    await visit(admin.page, '/force', 'Force mode');
    assert.equal(await admin.page.getByTestId('force-state').textContent(), 'off');
    await admin.page.getByRole('button', { name: 'Turn force mode on' }).click();
    await admin.page.getByRole('button', { name: 'Turn force mode off' }).waitFor();
    assert.equal(await admin.page.getByTestId('force-state').textContent(), 'on');
    await assertAccessible(admin.page, 'force mode');
    await screenshot(admin.page, 'force');
    await admin.context.close();

    const member = await signedIn('member');
    await visit(member.page, '/force', 'Force mode');
    assert.equal(await member.page.getByTestId('force-state').textContent(), 'on');
    await member.page.getByText('you see it read-only').waitFor();
    assert.equal(await member.page.getByRole('button', { name: /Turn force mode/ }).count(), 0);
    const refused = (await member.page.evaluate(async () => {
      const r = await fetch('/api/dashboard/gateway/force', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: false }),
      });
      return { status: r.status, body: await r.json() };
    })) as { status: number; body: { error: string } };
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'forbidden');
    await member.context.close();
    // switched back for the other tests (chat would be unaffected, but keep the tenant as found)
    const off = await t.request('POST', '/api/dashboard/gateway/force', {
      cookie: await acme.session('owner'),
      body: { enabled: false },
    });
    assert.equal(off.status, 200);
  });

  it('creates a webhook, sends a test and shows the delivery in its log', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/webhooks', 'Webhooks');
    await page.getByLabel('Endpoint URL').fill('not a url');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Enter the full URL of your endpoint').waitFor();
    await page.getByLabel('Endpoint URL').fill(`${hooks.url}/parapet`);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    assert.match((await page.getByTestId('secret').textContent()) ?? '', /^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByTestId('test-result').waitFor();
    assert.match((await page.getByTestId('test-result').textContent()) ?? '', /^Test delivered: 2\d\d/);
    const log = page.getByTestId('deliveries');
    await log.getByText('detection.high_severity (test)').waitFor();
    await log.getByText('delivered').first().waitFor();
    assert.ok(hooks.requests.length >= 1, 'the receiver got the test delivery');
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No deliveries match.').waitFor();
    await page.getByLabel('Status').selectOption('delivered');
    await log.getByText('detection.high_severity (test)').waitFor();
    await log.getByRole('button', { name: 'Attempts' }).first().click();
    await page.getByText(/#1 at/).waitFor();
    await assertAccessible(page, 'webhooks');
    await screenshot(page, 'webhooks');

    // A test send is no activity: its event is not stored, so it offers no Redeliver.
    assert.equal(await log.getByRole('button', { name: 'Redeliver' }).count(), 0);
    // redeliver: a real event's delivery is queued again, and the delivery worker sends it once more
    await t.ctx.events.publishFor(t.ctx.storage.db, acme.org.id, 'detection.high_severity', {
      detectionId: 'det_redeliver',
    });
    const workers = createEventWorkers(t.ctx);
    try {
      await workers.runDue();
      await page.reload();
      await log.getByText('detection.high_severity', { exact: true }).waitFor();
      const before = hooks.requests.length;
      const requeued = page.waitForResponse((r) => /\/deliveries\/del_[^/]+\/redeliver$/.test(r.url()));
      await log.getByRole('button', { name: 'Redeliver' }).first().click();
      assert.equal((await requeued).status(), 202);
      await workers.runDue();
      assert.equal(hooks.requests.length, before + 1, 'the receiver got the event once more');
    } finally {
      await workers.close();
    }
    // rotate: a new signing secret, shown once
    assert.equal(await page.getByTestId('secret').count(), 0, 'the creation secret is gone');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.getByTestId('secret').textContent()) ?? '';
    assert.match(rotated, /^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    // edit: another event type, saved
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('form', { name: 'Edit the webhook' });
    await edit.getByRole('checkbox', { name: 'dlp.blocked' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: /detection\.high_severity, dlp\.blocked/ }).waitFor();
    const stored = await t.request('GET', '/api/webhooks', { cookie: await acme.session('owner') });
    assert.deepEqual(stored.body.webhooks[0].events.sort(), ['detection.high_severity', 'dlp.blocked']);
    await context.close();
  });

  it('chats through the protected chat with a streamed, rehydrated answer and its protection summary', async () => {
    const owner = await acme.session('owner');
    const put = await t.request('PUT', '/api/dashboard/gateway/providers/openai', {
      cookie: owner,
      body: { apiKey: 'sk-test-browser-0000' },
    });
    assert.equal(put.status, 200, put.text);
    const { context, page } = await signedIn('member');
    await visit(page, '/chat', 'Protected chat');
    await page.getByText('No conversations yet.').waitFor();
    await page.getByLabel('Model (optional)').fill('openai/gpt-4o-mini');
    const message = 'Please write to maria.lopez@example.com about the invoice';
    await page.getByLabel('Message', { exact: true }).fill(message);
    const streamed = page.waitForResponse((r) => r.url().endsWith('/api/v1/gateway/chat'));
    await page.getByRole('button', { name: 'Send' }).click();
    const res = await streamed;
    assert.equal(res.status(), 200);
    assert.match(res.headers()['content-type'] ?? '', /^text\/event-stream/);
    await page.getByTestId('protection').waitFor();
    // the fake provider repeats the message it received: tokenized there, restored here
    assert.equal(await page.getByTestId('answer').textContent(), message);
    assert.doesNotMatch(JSON.stringify(fake.lastRequest()?.body), /maria\.lopez/);
    const summary = (await page.getByTestId('protection').textContent()) ?? '';
    assert.match(summary, /Model openai\/gpt-4o-mini/);
    assert.match(summary, /1 personal-data token\(s\) placed/);
    assert.match(summary, /answer rehydrated/);
    await page.waitForURL(/\/chat\?c=conv_/);
    await page.getByRole('navigation', { name: 'Conversations' }).getByText('2 messages').waitFor();
    await assertAccessible(page, 'chat');
    await screenshot(page, 'chat');
    // a new conversation, then the stored one again from the list: its history as stored (tokenized)
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByText('Ask something to start a conversation.').waitFor();
    await page.getByRole('navigation', { name: 'Conversations' }).getByText('2 messages').click();
    await page.waitForURL(/\/chat\?c=conv_/);
    const stored = page.getByTestId('messages').locator('.msg');
    await stored.nth(1).waitFor();
    assert.equal(await stored.count(), 2);
    const history = (await page.getByTestId('messages').textContent()) ?? '';
    assert.doesNotMatch(history, /maria\.lopez/, 'the stored history keeps the token');
    assert.match(history, /Please write to .*EMAIL.* about the invoice/);
    await context.close();
  });

  it('shows every other page without serious accessibility violations (screenshots for the docs)', async () => {
    await t.ctx.storage.db
      .insertInto('events')
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          id: `evt_shot_${i}`,
          org_id: acme.org.id,
          type: i % 4 === 0 ? 'detection.high_severity' : i % 3 === 0 ? 'dlp.violation' : 'detection.created',
          created_at: new Date(Date.now() - (i % 12) * 86_400_000).toISOString(),
          data: JSON.stringify(
            i % 4 === 0 ? { severity: 'HIGH', category: 'jailbreak', riskScore: 80 + (i % 20) } : {},
          ),
        })),
      )
      .execute();
    const { context, page } = await signedIn('owner');
    await page.locator('.loading').first().waitFor({ state: 'detached' });
    await page.locator('.chart canvas').first().waitFor();
    await assertAccessible(page, 'overview');
    await screenshot(page, 'overview');
    for (const [path, title, file] of [
      ['/users', 'Users and roles', 'users'],
      ['/organization', 'Organization', 'organization'],
      ['/settings', 'Detection and DLP', 'settings'],
      ['/providers', 'Provider keys', 'providers'],
      ['/siem', 'SIEM integrations', 'siem'],
    ] as const) {
      await visit(page, path, title);
      await assertAccessible(page, title);
      await screenshot(page, file);
    }
    await context.close();
    assert.deepEqual(
      consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e)),
      [],
      'no CSP violation',
    );
  });
});

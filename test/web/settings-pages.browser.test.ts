import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureWebBuilt } from '../../scripts/build-web.js';
import { createEventWorkers, type EventWorkers } from '../../src/main/worker.js';
import type { Role } from '../../src/modules/plans/index.js';
import { type HecFake, startHecFake } from '../receivers/splunk-hec-fake.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import {
  assertAccessible,
  dashboardUsers,
  launchChromium,
  screenshot,
  signIn,
  visit as visitPage,
} from './browser.js';

// The users, settings and SIEM pages in a real browser against a real server (docs/dashboard.md): a role
// changed, a custom DLP pattern saved and an unsafe one refused with the server's reason, a detection
// setting read back, and a SIEM integration tested against a Splunk HEC receiver on loopback.

const HEC_TOKEN = 'hec-browser-token-5d1e';

let t: TestServer;
let browser: Browser;
let hec: HecFake;
let workers: EventWorkers;
let acme: Tenant;
let users = new Map<Role, { email: string; password: string }>();
const consoleErrors: string[] = [];

before(async () => {
  ensureWebBuilt();
  t = await startTestServer();
  hec = await startHecFake(HEC_TOKEN);
  // not started: the SIEM test drains the queue once, when it chooses to
  workers = createEventWorkers(t.ctx);
  acme = await t.tenant({ name: 'Acme Settings' });
  users = await dashboardUsers(t, acme, 'settings.acme.example', ['owner', 'admin', 'member', 'viewer']);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await workers?.close();
  await hec?.close();
  await t?.close();
});

const signedIn = (role: Role): Promise<{ context: BrowserContext; page: Page }> =>
  signIn(browser, t.url, users.get(role)!, consoleErrors);
const visit = (page: Page, path: string, title: string) => visitPage(page, t.url, path, title);
const reload = async (page: Page) => {
  await page.reload();
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
};

describe('users, settings and SIEM pages in Chromium', () => {
  it('adds a user, changes its role (an admin is refused an owner by the server), and removes it', async () => {
    const email = 'dana@settings.acme.example';
    const owner = await signedIn('owner');
    await visit(owner.page, '/users', 'Users and roles');
    // one's own role has no picker: nobody changes their own role
    await owner.page
      .getByRole('row', { name: new RegExp(users.get('owner')!.email) })
      .getByRole('cell', { name: 'owner', exact: true })
      .waitFor();
    assert.equal(await owner.page.getByLabel(`Role of ${users.get('owner')!.email}`).count(), 0);

    await owner.page.getByLabel('E-mail').fill(email);
    await owner.page.getByLabel('Role', { exact: true }).selectOption('member');
    await owner.page.getByRole('button', { name: 'Add user' }).click();
    await owner.page.getByRole('region', { name: 'Initial password of the new user' }).waitFor();
    const picker = owner.page.getByLabel(`Role of ${email}`);
    await picker.waitFor();
    assert.equal(await picker.inputValue(), 'member');

    // validated before it posts: the role it already has
    await owner.page.getByRole('button', { name: `Change role of ${email}` }).click();
    await owner.page.getByText('Already member: choose another role.').waitFor();

    await picker.selectOption('admin');
    await owner.page.getByRole('button', { name: `Change role of ${email}` }).click();
    await owner.page
      .getByRole('status')
      .filter({ hasText: `${email} is now admin.` })
      .waitFor();
    assert.equal(await owner.page.getByLabel(`Role of ${email}`).inputValue(), 'admin');
    await assertAccessible(owner.page, 'users with role pickers');
    await screenshot(owner.page, 'users-roles');
    const listed = await t.request('GET', '/api/dashboard/users', { cookie: await acme.session('viewer') });
    const dana = listed.body.users.find((u: { email: string }) => u.email === email);
    assert.equal(dana.role, 'admin');
    const audit = await t.ctx.storage.db
      .selectFrom('events')
      .select('data')
      .where('org_id', '=', acme.org.id)
      .where('type', '=', 'audit.user_role')
      .execute();
    assert.deepEqual(
      audit.map((e) => JSON.parse(e.data).targetId),
      [dana.id],
    );

    // an admin may not make an owner: the server's refusal is shown as it comes
    const admin = await signedIn('admin');
    await visit(admin.page, '/users', 'Users and roles');
    await admin.page.getByLabel(`Role of ${email}`).selectOption('owner');
    await admin.page.getByRole('button', { name: `Change role of ${email}` }).click();
    const alert = admin.page.getByRole('alert');
    await alert.waitFor();
    assert.match(
      (await alert.textContent()) ?? '',
      /Only an owner can make or unmake an owner\.\s*\(403 forbidden/,
    );
    await admin.context.close();

    await owner.page.getByRole('button', { name: `Remove ${email}` }).click();
    await owner.page.getByLabel(`Role of ${email}`).waitFor({ state: 'detached' });
    const after = await t.request('GET', '/api/dashboard/users', { cookie: await acme.session('viewer') });
    assert.equal(
      after.body.users.some((u: { email: string }) => u.email === email),
      false,
    );
    await owner.context.close();
  });

  it('a new add clears the previous initial password, and a too long name is refused before posting', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/users', 'Users and roles');
    const secret = page.getByRole('region', { name: 'Initial password of the new user' });
    const add = async (email: string, name: string) => {
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Name (optional)').fill(name);
      await page.getByRole('button', { name: 'Add user' }).click();
    };
    await add('first@settings.acme.example', 'First');
    await secret.waitFor();

    // The same e-mail again: the server refuses it, and the first user's password is no longer shown
    // above the refusal as if it were this one's.
    await add('first@settings.acme.example', 'Again');
    await page
      .getByRole('alert')
      .filter({ hasText: /already exists/ })
      .waitFor();
    assert.equal(await secret.count(), 0, 'the previous initial password is gone');

    await add('second@settings.acme.example', 'N'.repeat(201));
    await page.getByText('At most 200 characters.').waitFor();
    const listed = await t.request('GET', '/api/dashboard/users', { cookie: await acme.session('viewer') });
    assert.ok(
      !listed.body.users.some((u: { email: string }) => u.email === 'second@settings.acme.example'),
      'nothing was posted',
    );
    await context.close();
  });

  it('tells a member that proofs are for admins, without a refused request; a viewer cannot generate a report', async () => {
    const { context, page } = await signedIn('member');
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) refused.push(r.url());
    });
    await visit(page, '/proofs', 'Proofs');
    await page.getByText('Proofs are for owners and admins only').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0, 'no error box');
    assert.equal(await page.getByRole('table').count(), 0);
    assert.deepEqual(refused, [], 'the page does not call the admin-only proofs API');
    await assertAccessible(page, 'proofs (member)');
    await context.close();

    const viewer = await signedIn('viewer');
    await visit(viewer.page, '/reports', 'Reports');
    await viewer.page.getByText('A viewer reads the reports').waitFor();
    assert.equal(await viewer.page.getByRole('form', { name: 'Generate a report' }).count(), 0);
    await viewer.context.close();
  });

  it('changes one’s own password: checked before posting, a wrong current one refused, other sessions ended', async () => {
    const { email, password } = users.get('member')!;
    const elsewhere = await t.request('POST', '/api/dashboard/auth/login', { body: { email, password } });
    const otherCookie = (elsewhere.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { context, page } = await signedIn('member');
    await visit(page, '/account', 'Your account');
    const fill = async (current: string, next: string, again: string) => {
      await page.getByLabel('Current password').fill(current);
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('New password again').fill(again);
      await page.getByRole('button', { name: 'Change password' }).click();
    };
    await fill(password, 'short', 'short');
    await page.getByText('At least 12 characters.').waitFor();
    await fill(password, 'a-new-password-42', 'a-new-password-43');
    await page.getByText('The two new passwords differ.').waitFor();
    await fill('not-my-password', 'a-new-password-42', 'a-new-password-42');
    await page
      .getByRole('alert')
      .filter({ hasText: /current password is wrong/ })
      .waitFor();
    await fill(password, 'a-new-password-42', 'a-new-password-42');
    // the other sign-in above, and the member's sessions of earlier tests (closed browsers, never signed out)
    await page
      .getByRole('status')
      .filter({ hasText: /^Password changed; [1-9]\d* other sessions? signed out\.$/ })
      .waitFor();
    await assertAccessible(page, 'account');
    assert.equal((await t.request('GET', '/api/dashboard/auth/me', { cookie: otherCookie })).status, 401);
    users.set('member', { email, password: 'a-new-password-42' });
    await context.close();
  });

  it('sends a user whose password an admin gave to the account page, with why, until they change it', async () => {
    const email = 'new.hire@settings.acme.example';
    const added = await t.request('POST', '/api/dashboard/users', {
      cookie: await acme.session('owner'),
      body: { email, role: 'admin' },
    });
    assert.equal(added.status, 201, added.text);
    const given: string = added.body.password;
    // the owner's list says whose password change is still due
    const owner = await signedIn('owner');
    await visit(owner.page, '/users', 'Users and roles');
    await owner.page
      .getByRole('row', { name: new RegExp(email) })
      .getByText('must change the password given')
      .waitFor();
    await owner.context.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    // a deep link first: the sign-in page sends there, and the app sends on to the account page instead
    await page.goto(`${t.url}/users`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(given);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/account`);
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    await page
      .getByRole('alert')
      .filter({ hasText: /Choose your own password to continue\..*set by\s+an administrator/s })
      .waitFor();
    await assertAccessible(page, 'account, password change due');

    // another page, by the navigation or by the address bar, leads back to the account page
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${t.url}/account`);
    await page.goto(`${t.url}/keys`);
    await page.waitForURL(`${t.url}/account`);
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();

    await page.getByLabel('Current password').fill(given);
    await page.getByLabel('New password', { exact: true }).fill('chosen-by-me-2026');
    await page.getByLabel('New password again').fill('chosen-by-me-2026');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Password changed/ })
      .waitFor();
    assert.equal(await page.getByText('Choose your own password to continue').count(), 0);
    await visit(page, '/keys', 'API keys');
    assert.equal(page.url(), `${t.url}/keys`);
    await context.close();
  });

  it('declares an icon that loads, and the DNS page asks for nothing missing before a first save', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/login`);
    await page.getByRole('heading', { name: 'Sign in to Parapet' }).waitFor();
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.ok(href, 'an icon is declared, so browsers do not ask for /favicon.ico');
    if (!href.startsWith('data:image/')) {
      const icon = await page.request.get(new URL(href, t.url).href);
      assert.equal(icon.status(), 200);
      assert.match(icon.headers()['content-type'] ?? '', /^image\//);
    }
    await context.close();

    const owner = await signedIn('owner');
    const missing: string[] = [];
    owner.page.on('response', (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    await visit(owner.page, '/dns', 'DNS filtering');
    await owner.page.getByText('No DNS filtering configured yet').waitFor();
    assert.deepEqual(missing, [], 'no 404 before a DNS configuration is saved');
    await owner.context.close();
  });

  it('the sign-in page speaks to the employees force mode sends there, not to the operator of a first start', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/login`);
    await page.getByRole('heading', { name: 'Sign in to Parapet' }).waitFor();
    assert.equal(await page.getByText('npm start').count(), 0);
    await page.getByText('Use the account your organization').waitFor();
    await context.close();
  });

  it('saves a detection setting and reads it back; adds a custom DLP pattern and has an unsafe one refused', async () => {
    const { context, page } = await signedIn('owner');
    await visit(page, '/settings', 'Detection and DLP');

    // detection: validated, saved, and read back after a reload
    await page.getByLabel('Log from').fill('60');
    await page.getByLabel('Warn from').fill('40');
    await page.getByRole('button', { name: 'Save detection settings' }).click();
    await page.getByText('Thresholds must rise: log ≤ warn ≤ block.').waitFor();
    await page.getByLabel('Log from').fill('20');
    await page.getByLabel('Warn from').fill('45');
    await page.getByLabel('Block from').fill('85');
    await page.getByLabel('Allowed phrases (one per line)').fill('Acme quarterly template');
    await page.getByRole('button', { name: 'Save detection settings' }).click();
    await page
      .getByRole('form', { name: 'Detection settings' })
      .getByRole('status')
      .filter({ hasText: 'Saved.' })
      .waitFor();
    await reload(page);
    assert.equal(await page.getByLabel('Log from').inputValue(), '20');
    assert.equal(await page.getByLabel('Warn from').inputValue(), '45');
    assert.equal(await page.getByLabel('Block from').inputValue(), '85');
    assert.equal(
      await page.getByLabel('Allowed phrases (one per line)').inputValue(),
      'Acme quarterly template',
    );
    const detection = await t.request('GET', '/api/dashboard/detection/settings', {
      cookie: await acme.session('viewer'),
    });
    assert.deepEqual(detection.body.thresholds, { log: 20, warn: 45, block: 85 });

    // custom patterns: empty, validated, saved, refused with the server's reason
    await page.getByText('No custom pattern yet.').waitFor();
    const form = page.getByRole('form', { name: 'Add a custom pattern' });
    await form.getByLabel('Pattern name').fill('9lives');
    await form.getByRole('button', { name: 'Add pattern' }).click();
    await form.getByText('Letters, digits and _, starting with a letter (at most 64).').waitFor();
    await form.getByText('Enter a regular expression.').waitFor();

    await form.getByLabel('Pattern name').fill('CONTRACT_NO');
    await form.getByLabel('Data domain').selectOption('CORPORATE');
    await form.getByLabel('Regular expression').fill('CT-\\d{6}');
    await form.getByRole('button', { name: 'Add pattern' }).click();
    await page.getByRole('status').filter({ hasText: 'Pattern CONTRACT_NO saved.' }).waitFor();
    await page.getByRole('cell', { name: 'CT-\\d{6}' }).waitFor();
    const dlp = await t.request('GET', '/api/dashboard/dlp/settings', {
      cookie: await acme.session('viewer'),
    });
    assert.deepEqual(dlp.body.customPatterns, [
      { name: 'CONTRACT_NO', domain: 'CORPORATE', regex: 'CT-\\d{6}' },
    ]);
    // and the engine uses it at once
    const analyzed = await t.request('POST', '/api/v1/dlp/analyze', {
      key: acme.al,
      body: { text: 'Contract CT-204518 renews in May.' },
    });
    assert.equal(analyzed.status, 200, analyzed.text);
    assert.deepEqual(
      analyzed.body.tokens.map((x: { type: string }) => x.type.toUpperCase()),
      ['CONTRACT_NO'],
    );

    await form.getByLabel('Pattern name').fill('PRICE_AFTER');
    await form.getByLabel('Regular expression').fill('\\d+(?= EUR)');
    await form.getByRole('button', { name: 'Add pattern' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(
      (await alert.textContent()) ?? '',
      /The field 'customPatterns\[1\]\.regex' \(pattern 'PRICE_AFTER'\) is refused: lookahead \(\?= or \(\?! is not supported\.\s*\(400 invalid_request/,
    );
    const unchanged = await t.request('GET', '/api/dashboard/dlp/settings', {
      cookie: await acme.session('viewer'),
    });
    assert.equal(unchanged.body.customPatterns.length, 1, 'the refused pattern was not stored');
    await assertAccessible(page, 'settings with the custom pattern editor');
    await screenshot(page, 'settings-patterns');

    // saving the other DLP settings keeps the pattern added since the page loaded
    await page.getByLabel('Vault session lifetime (hours)').fill('48');
    await page.getByRole('button', { name: 'Save DLP settings' }).click();
    await page
      .getByRole('form', { name: 'DLP settings' })
      .getByRole('status')
      .filter({ hasText: 'Saved.' })
      .waitFor();
    const saved = await t.request('GET', '/api/dashboard/dlp/settings', {
      cookie: await acme.session('viewer'),
    });
    assert.equal(saved.body.sessionTtlHours, 48);
    assert.deepEqual(
      saved.body.customPatterns.map((p: { name: string }) => p.name),
      ['CONTRACT_NO'],
    );

    await page.getByRole('button', { name: 'Remove pattern CONTRACT_NO' }).click();
    await page.getByText('No custom pattern yet.').waitFor();
    const removed = await t.request('GET', '/api/dashboard/dlp/settings', {
      cookie: await acme.session('viewer'),
    });
    assert.deepEqual(removed.body.customPatterns ?? [], []);
    await context.close();
  });

  it('creates a Splunk integration, tests it, and shows its queue and circuit breaker', async () => {
    // Every event queues in every integration (filters apply when it is sent), a sign-in too: the session
    // used to read the queue limit is opened before the integration exists.
    const viewer = await acme.session('viewer');
    const { context, page } = await signedIn('owner');
    await visit(page, '/siem', 'SIEM integrations');
    await page.getByText('No SIEM integration yet.').waitFor();
    const form = page.getByRole('form', { name: 'Add a SIEM integration' });
    await form.getByLabel('Platform').selectOption({ label: 'Splunk (HEC)' });
    await form.getByRole('button', { name: 'Add integration' }).click();
    await form.getByText('Name the integration.').waitFor();
    await form.getByText('HEC URL is required.').waitFor();

    const add = async (name: string, token: string) => {
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('HEC URL').fill(hec.url);
      await form.getByLabel('HEC token').fill(token);
      await form.getByRole('button', { name: 'Add integration' }).click();
      await page.getByRole('cell', { name, exact: true }).waitFor();
    };
    await add('Corp Splunk', HEC_TOKEN);
    const row = page.getByRole('row', { name: /Corp Splunk/ });
    await row.getByText('closed').waitFor();
    const limit = (await t.request('GET', '/api/saas/siem/integrations', { cookie: viewer })).body
      .integrations[0].status.queueLimit as number;
    await row.getByRole('cell', { name: `0 / ${limit}` }).waitFor();

    // an event waits in its queue until the forwarder runs
    await t.ctx.events.publishFor(t.ctx.storage.db, acme.org.id, 'detection.created', { severity: 'HIGH' });
    await reload(page);
    await row.getByRole('cell', { name: `1 / ${limit}` }).waitFor();

    const before = hec.envelopes.length;
    await row.getByRole('button', { name: 'Test Corp Splunk' }).click();
    const result = page.getByRole('status').filter({ hasText: /^Corp Splunk: / });
    await result.waitFor();
    assert.match((await result.textContent()) ?? '', /^Corp Splunk: accepted \(200\) in \d+ ms\.$/);
    assert.equal(hec.envelopes.length, before + 1, 'the test event reached the receiver');

    await workers.forwarder.runDue();
    await reload(page);
    await row.getByRole('cell', { name: `0 / ${limit}` }).waitFor();
    assert.equal((await row.getByRole('cell').nth(4).textContent())?.trim(), '1', 'delivered');

    // a receiver that refuses: the test says why, and a failed delivery opens the breaker
    await add('Wrong-token Splunk', 'not-the-token-0000');
    const bad = page.getByRole('row', { name: /Wrong-token Splunk/ });
    await bad.getByRole('button', { name: 'Test Wrong-token Splunk' }).click();
    const refused = page.getByRole('status').filter({ hasText: /^Wrong-token Splunk: / });
    await refused.waitFor();
    assert.match((await refused.textContent()) ?? '', /^Wrong-token Splunk: refused: .+\.$/);
    await t.ctx.events.publishFor(t.ctx.storage.db, acme.org.id, 'detection.created', { severity: 'HIGH' });
    await workers.forwarder.runDue();
    await reload(page);
    await bad.getByText('open', { exact: true }).waitFor();
    assert.match((await bad.textContent()) ?? '', /1 failures/);
    await assertAccessible(page, 'SIEM integrations after a test');
    await screenshot(page, 'siem-test');
    await context.close();
    assert.deepEqual(
      consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e)),
      [],
      'no CSP violation',
    );
  });
});

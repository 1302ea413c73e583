import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Role } from '../../src/modules/plans/index.js';
import type { TestServer } from '../support/harness.js';
import { signIn, startDashboardFixture, visit as visitPage } from './browser.js';

// Where the dashboard goes after sign-in and on unknown addresses, and what read-only pages offer, in a real
// browser against a real server (docs/dashboard.md). A server of its own, as every browser test file has: each
// file's sign-ins and settings stay apart from the others'.

let t: TestServer;
let browser: Browser;
let users = new Map<Role, { email: string; password: string }>();
const consoleErrors: string[] = [];

before(async () => {
  ({ t, users, browser } = await startDashboardFixture('Acme Navigation', 'navigation.acme.example', [
    'owner',
    'member',
    'viewer',
  ]));
});

after(async () => {
  await browser?.close();
  await t?.close();
});

const signedIn = (role: Role): Promise<{ context: BrowserContext; page: Page }> =>
  signIn(browser, t.url, users.get(role)!, consoleErrors);
const visit = (page: Page, path: string, title: string) => visitPage(page, t.url, path, title);

describe('dashboard navigation and read-only pages in Chromium', () => {
  it('after sign-in, goes only to a page of this app named in next: never another origin, an API path or a backslash trick', async () => {
    const signInAt = async (next: string) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${t.url}/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('E-mail').fill(users.get('viewer')!.email);
      await page.getByLabel('Password').fill(users.get('viewer')!.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Sign in' }).waitFor();
      const where = new URL(page.url());
      const heading = await page.getByRole('heading', { level: 1 }).textContent();
      await context.close();
      return { path: where.pathname + where.search, origin: where.origin, heading, errors };
    };
    for (const next of ['/\\evil.example', '/\\/evil.example', '/api/dashboard/keys', '/nope']) {
      const r = await signInAt(next);
      assert.equal(r.origin, t.url, next);
      assert.equal(r.path, '/', next);
      assert.equal(r.heading, 'Overview', next);
      assert.deepEqual(r.errors, [], `a page error for ${JSON.stringify(next)}`);
    }
    const keys = await signInAt('/keys?page=2');
    assert.equal(keys.path, '/keys?page=2');
    assert.equal(keys.heading, 'API keys');
  });

  it("a reload of an unknown address shows the app's Not found page (status 404), not the API's JSON", async () => {
    const { context, page } = await signedIn('owner');
    const res = await page.goto(`${t.url}/no-such-page`);
    assert.equal(res?.status(), 404);
    await page.getByRole('heading', { name: 'Not found', level: 1 }).waitFor();
    assert.equal(await page.getByText('"error"').count(), 0);
    await context.close();
  });

  it('read-only pages offer no enabled field, and the provider keys page asks nothing of the API for a member or viewer', async () => {
    for (const role of ['viewer', 'member'] as const) {
      const { context, page } = await signedIn(role);
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
      });
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/dashboard/gateway/providers')) asked.push(r.url());
      });
      for (const [path, title] of [
        ['/settings', 'Detection and DLP'],
        ['/devices', 'Endpoint devices'],
      ] as const) {
        await visit(page, path, title);
        await page.locator('form').first().waitFor();
        const enabled = page.locator('main form :is(input, select, textarea, button):enabled');
        assert.deepEqual(
          await enabled.evaluateAll((els) => els.map((e) => e.getAttribute('name') ?? e.id ?? e.tagName)),
          [],
          `${role} on ${path}: enabled fields on a read-only page`,
        );
        // and they do not look editable: greyed (an editable field is white), with the not-allowed cursor
        // (a string, evaluated in the page: the root tsconfig has no DOM types)
        const looks =
          (await page.evaluate(`[...document.querySelectorAll('main form :is(input, select, textarea)')]
          .map((e) => { const st = getComputedStyle(e); return { cursor: st.cursor, greyed: st.backgroundColor !== 'rgb(255, 255, 255)' }; })`)) as {
            cursor: string;
            greyed: boolean;
          }[];
        assert.ok(looks.length > 0, `${role} on ${path}: no field`);
        assert.deepEqual(
          looks.filter((l) => l.cursor !== 'not-allowed' || !l.greyed),
          [],
          `${role} on ${path}: fields that look editable`,
        );
      }
      await visit(page, '/providers', 'Provider keys');
      await page.getByText('visible to owners and admins only').waitFor();
      assert.deepEqual(asked, [], `${role}: the provider keys API was called`);
      assert.deepEqual(refused, [], `${role}: refused requests`);
      await context.close();
    }
  });
});

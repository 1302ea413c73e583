import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type TestServer, startTestServer } from '../support/harness.js';
import { launchChromium } from './browser.js';

// The API reference (/api/docs, Swagger UI) under its Content-Security-Policy, in Chromium: a policy that
// forgot something the page needs blanks it or breaks "Try it out", and the browser says so only as a
// violation in the console (Swagger UI's own logo, drawn while the page starts, has the one inline <style>
// the policy allows by its hash: without it, a violation here). The header is checked in web-serving.test.ts.

let t: TestServer;
let browser: Browser;

before(async () => {
  t = await startTestServer();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

describe('the API reference in Chromium', () => {
  it('renders its operations and runs "Try it out" with no policy violation', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    // a string, run in the page: the root tsconfig has no DOM types
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) =>
        console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))`,
    });
    const res = await page.goto(`${t.url}/api/docs`);
    assert.match(res?.headers()['content-security-policy'] ?? '', /default-src 'none'/);

    const health = page.locator('.opblock-summary-path[data-path="/api/health"]');
    await health.waitFor();
    assert.ok((await page.locator('.opblock').count()) > 50, 'the operations are listed');

    await health.click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    await page.locator('.live-responses-table tbody .response-col_status').first().waitFor();
    assert.equal(
      (await page.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim(),
      '200',
      'the call reached this server',
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
});

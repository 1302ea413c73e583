import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import type { Role } from '../../src/modules/plans/index.js';
import { ensureWebBuilt } from '../../scripts/build-web.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

/** Debian's chromium (scripts/system-packages.txt); playwright-core drives it, no browser is downloaded. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/**
 * The docs' screenshots are refreshed with DASHBOARD_SCREENSHOTS=1 (docs/dashboard.md); an ordinary test run
 * writes them to a temporary folder so that it leaves the working tree as it found it.
 */
export const SCREENSHOTS =
  process.env['DASHBOARD_SCREENSHOTS'] === '1'
    ? fileURLToPath(new URL('../../docs/images/', import.meta.url))
    : `${join(tmpdir(), 'parapet-dashboard-shots')}/`;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  // --no-sandbox: the suite may run as root in a container, where Chromium's sandbox cannot start
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core run inside the page. Injected through the DevTools protocol (page.evaluate), which the page's
 * Content-Security-Policy does not apply to: the app itself keeps its no-inline-script policy.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  // a string, evaluated in the page: the root tsconfig has no DOM types
  const violations = (await page.evaluate(`(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })()`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/** Signs in through the sign-in page in a fresh context; console errors (a CSP violation is one) are collected. */
export async function signIn(
  browser: Browser,
  baseUrl: string,
  user: { email: string; password: string },
  consoleErrors: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${baseUrl}/`);
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { context, page };
}

/** Follows the navigation link to a page and waits until its lists have loaded. */
export async function visit(page: Page, baseUrl: string, path: string, title: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: title, exact: true })
    .click();
  await page.waitForURL(`${baseUrl}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

export async function assertAccessible(page: Page, what: string): Promise<void> {
  const serious = await seriousViolations(page);
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
    [],
    `serious accessibility violations on ${what}`,
  );
}

/** Users of the given roles in a tenant, with the passwords the sign-in page needs. */
export async function dashboardUsers(
  t: TestServer,
  tenant: Tenant,
  domain: string,
  roles: readonly Role[],
): Promise<Map<Role, { email: string; password: string }>> {
  const users = new Map<Role, { email: string; password: string }>();
  for (const role of roles) {
    const email = `${role}@${domain}`;
    const password = `pw-${randomBytes(9).toString('hex')}`;
    await t.ctx.orgs.createUser({
      org: tenant.org,
      email,
      role,
      password,
      name: `${role} of ${tenant.org.name}`,
    });
    users.set(role, { email, password });
  }
  return users;
}

/**
 * What a browser test file starts with: the dashboard built, a server of its own, a tenant with a user of each
 * role in `roles`, and Chromium. The files' own `after` closes the browser and the server.
 */
export async function startDashboardFixture(
  tenantName: string,
  domain: string,
  roles: readonly Role[],
): Promise<{
  t: TestServer;
  tenant: Tenant;
  users: Map<Role, { email: string; password: string }>;
  browser: Browser;
}> {
  ensureWebBuilt();
  const t = await startTestServer();
  const tenant = await t.tenant({ name: tenantName });
  const users = await dashboardUsers(t, tenant, domain, roles);
  const browser = await launchChromium();
  return { t, tenant, users, browser };
}

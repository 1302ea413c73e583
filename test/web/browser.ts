import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page, chromium } from 'playwright-core';

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
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
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

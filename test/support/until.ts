import assert from 'node:assert/strict';

/**
 * Waits until `check` holds, polling. The deadline is long: it only turns a hang into a failure naming
 * `what`, never a timing assertion (the order of events is what a test checks).
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`still waiting for: ${what}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const EXTRA_DIRS = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

/**
 * Absolute path of a receiver binary. A missing one fails the test with the fix, never skips it: these
 * tests are the only proof that our wire formats work against the real software.
 */
export function requireBinary(name: string): string {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), ...EXTRA_DIRS];
  for (const d of dirs) {
    if (d === '') continue;
    const p = join(d, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // keep looking
    }
  }
  throw new Error(
    `${name} is not installed: run scripts/ensure-system-packages.sh (as root; npm test runs it first)`,
  );
}

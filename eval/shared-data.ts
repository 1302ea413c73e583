import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The public data folder (`shared/data/<part>`): SHARED_DATA_DIR when set, else the nearest `shared/data`
 * above the repository (a main checkout sits next to it, a worktree one level deeper).
 */
export function sharedDataDir(part: string): string {
  if (process.env.SHARED_DATA_DIR) return join(process.env.SHARED_DATA_DIR, part);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'shared', 'data', part);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), '../../shared/data', part);
}

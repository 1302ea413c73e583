import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateMasterKey, parseMasterKey } from '../platform/crypto/index.js';
import { ConfigError } from '../platform/config/index.js';
import { restrictFile } from '../platform/storage/index.js';

/**
 * The key that seals secrets at rest. A deployment on PostgreSQL must provide it, because a key generated
 * on one server would not open what another sealed; the embedded default keeps one beside its database.
 */
export function loadMasterKey(opts: {
  configured: string;
  dataDir: string;
  embedded: boolean;
  /** The variable named in the error (the verification server has its own). */
  variable?: string;
}): Buffer {
  const variable = opts.variable ?? 'PARAPET_MASTER_KEY';
  // Missing or malformed, the key is a setting the process cannot start with (ConfigError: the CLI prints
  // the documented "invalid configuration: …" line, not an unexpected failure).
  if (opts.configured) {
    try {
      return parseMasterKey(opts.configured);
    } catch {
      throw new ConfigError(
        `invalid configuration: ${variable} must be 32 bytes, written as 64 hex characters or base64`,
      );
    }
  }
  if (!opts.embedded) {
    throw new ConfigError(
      `invalid configuration: ${variable} is required with a PostgreSQL store (64 hex characters; see README).`,
    );
  }
  const file = join(opts.dataDir, 'master.key');
  if (existsSync(file)) {
    // A key file copied in or restored from a backup may have come with a looser mode.
    restrictFile(file);
    return parseMasterKey(readFileSync(file, 'utf8'));
  }
  const key = generateMasterKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return parseMasterKey(key);
}

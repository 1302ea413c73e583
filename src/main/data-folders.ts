import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, ConfigError } from '../platform/config/index.js';

/**
 * The folders an API process writes besides its database, checked before it listens: on PostgreSQL
 * nothing else touches the data folder at start, so an unwritable PARAPET_DATA_DIR used to surface only
 * when the first PDF proof upload failed (500) — on a device, long after the deploy. The spool always
 * lives there; the proofs themselves too unless PARAPET_PROOF_STORE names an object store.
 */
export function checkDataFolders(config: Config): void {
  const folders = [join(config.dataDir, 'proofs-spool')];
  if (!config.proofStore) folders.push(join(config.dataDir, 'proofs'));
  for (const dir of folders) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      accessSync(dir, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new ConfigError(
        `cannot write ${dir} (PARAPET_DATA_DIR): ${code}; PDF proof uploads are kept there${config.proofStore ? ' while checked' : ''}`,
        { cause: err },
      );
    }
  }
}

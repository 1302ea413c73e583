import type { Migration } from 'kysely';
import * as m0001 from './0001-verifier.js';

/**
 * The verification server's migrations: its store is its own (a SQLite file in its data folder, or its own
 * PostgreSQL database), with its own bookkeeping tables, so this list never mixes with the API server's.
 */
export const VERIFIER_MIGRATIONS = {
  list: { '0001-verifier': m0001 } as Record<string, Migration>,
  table: 'verifier_migration',
  lockTable: 'verifier_migration_lock',
};

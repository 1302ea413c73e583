import type { Migration } from 'kysely';
import * as m0001 from './0001-foundation.js';

/** Ordered by name; a migration, once released, is never edited: add a new one. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': m0001,
};

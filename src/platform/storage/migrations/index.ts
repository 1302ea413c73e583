import type { Migration } from 'kysely';
import * as m0001 from './0001-foundation.js';
import * as m0002 from './0002-dlp-vault.js';
import * as m0003 from './0003-events-out.js';
import * as m0004 from './0004-gateway.js';
import * as m0005 from './0005-hallucination.js';
import * as m0012 from './0012-reports.js';
import * as m0010 from './0010-endpoint.js';
import * as m0013 from './0013-dashboard-indexes.js';
import * as m0020 from './0020-shadow-ai.js';
import * as m0021 from './0021-proofs.js';
import * as m0030 from './0030-key-scope.js';
import * as m0050 from './0050-dashboard-breakdowns.js';
import * as m0060 from './0060-conversation-owner.js';
import * as m0061 from './0061-endpoint-group-names.js';
import * as m0062 from './0062-proof-content-unique.js';
import * as m0063 from './0063-must-change-password.js';
import * as m0064 from './0064-endpoint-group-folded-names.js';
import * as m0065 from './0065-removed-users-endpoint.js';
import * as m0066 from './0066-events-keyset-index.js';
import * as m0067 from './0067-netproxy-batches.js';

/** Ordered by name; a migration, once released, is never edited: add a new one. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-dlp-vault': m0002,
  '0003-events-out': m0003,
  '0004-gateway': m0004,
  '0005-hallucination': m0005,
  '0012-reports': m0012,
  '0010-endpoint': m0010,
  '0013-dashboard-indexes': m0013,
  '0020-shadow-ai': m0020,
  '0021-proofs': m0021,
  '0030-key-scope': m0030,
  '0050-dashboard-breakdowns': m0050,
  '0060-conversation-owner': m0060,
  '0061-endpoint-group-names': m0061,
  '0062-proof-content-unique': m0062,
  '0063-must-change-password': m0063,
  '0064-endpoint-group-folded-names': m0064,
  '0065-removed-users-endpoint': m0065,
  '0066-events-keyset-index': m0066,
  '0067-netproxy-batches': m0067,
};

import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { invalid, notFound } from '../../platform/errors/index.js';
import type { Db, LicensesTable } from '../../platform/storage/index.js';
import {
  LICENSE_PRODUCTS,
  type LicensePayload,
  type LicenseProduct,
  decodeLicense,
  encodeLicense,
} from './license-format.js';

export type LicenseStatus = 'active' | 'expired' | 'revoked';
export type InvalidReason = 'malformed' | 'bad_signature' | 'expired' | 'revoked' | 'unknown';

export interface LicenseView {
  id: string;
  organizationId: string;
  plan: string;
  seats: number;
  products: string[];
  features: string[];
  issuedAt: string;
  expiresAt: string;
  status: LicenseStatus;
}

function view(row: LicensesTable, now: string): LicenseView {
  return {
    id: row.id,
    organizationId: row.org_id,
    plan: row.plan,
    seats: row.seats,
    products: JSON.parse(row.products),
    features: JSON.parse(row.features),
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    status: row.revoked_at ? 'revoked' : row.expires_at <= now ? 'expired' : 'active',
  };
}

/** Licences: issued by the CLI, verified offline by signature, revocable online. */
export function createLicensing(deps: { db: Db; clock: Clock; secret: Buffer }) {
  const { db, clock } = deps;
  const rows = () => db.selectFrom('licenses').selectAll();

  async function validate(
    key: string,
  ): Promise<
    | { valid: true; license: LicenseView }
    | { valid: false; reason: InvalidReason; license: LicenseView | null }
  > {
    const checked = decodeLicense(deps.secret, key);
    if (!checked.ok) return { valid: false, reason: checked.reason, license: null };
    const p = checked.payload;
    const row = await rows().where('id', '=', p.id).where('org_id', '=', p.org).executeTakeFirst();
    // A correctly signed licence this server has no row for was issued by another deployment's secret holder.
    if (!row) return { valid: false, reason: 'unknown', license: null };
    const v = view(row, clock.now().toISOString());
    if (v.status !== 'active') return { valid: false, reason: v.status, license: v };
    return { valid: true, license: v };
  }

  return {
    validate,

    async issue(input: {
      orgId: string;
      plan: string;
      seats: number;
      products: LicenseProduct[];
      features?: string[];
      expiresAt: string;
    }): Promise<{ license: LicenseView; key: string }> {
      const now = clock.now().toISOString();
      if (!Number.isInteger(input.seats) || input.seats < 1 || input.seats > 1_000_000) {
        throw invalid('seats must be an integer from 1 to 1,000,000.');
      }
      if (input.expiresAt <= now) throw invalid('The expiry must be in the future.');
      const bad = input.products.find((p) => !(LICENSE_PRODUCTS as readonly string[]).includes(p));
      if (bad || input.products.length === 0)
        throw invalid(`products must be among ${LICENSE_PRODUCTS.join(', ')}.`);
      const payload: LicensePayload = {
        v: 1,
        id: newId('lic'),
        org: input.orgId,
        plan: input.plan,
        seats: input.seats,
        products: [...new Set(input.products)],
        features: [...new Set(input.features ?? [])],
        iat: now,
        exp: input.expiresAt,
      };
      const row: LicensesTable = {
        id: payload.id,
        org_id: payload.org,
        plan: payload.plan,
        seats: payload.seats,
        products: JSON.stringify(payload.products),
        features: JSON.stringify(payload.features),
        issued_at: now,
        expires_at: payload.exp,
        revoked_at: null,
      };
      await db.insertInto('licenses').values(row).execute();
      return { license: view(row, now), key: encodeLicense(deps.secret, payload) };
    },

    async list(orgId: string): Promise<LicenseView[]> {
      const now = clock.now().toISOString();
      return (await rows().where('org_id', '=', orgId).orderBy('issued_at', 'desc').execute()).map((r) =>
        view(r, now),
      );
    },

    async revoke(orgId: string, id: string): Promise<LicenseView> {
      const now = clock.now().toISOString();
      await db
        .updateTable('licenses')
        .set({ revoked_at: now })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
      const row = await rows().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('License');
      return view(row, now);
    },

    /**
     * Endpoint seats of an organization: the largest among its active endpoint licences; null when it has
     * none (the plan gate alone applies then).
     */
    async endpointSeats(orgId: string): Promise<number | null> {
      const active = (await this.list(orgId)).filter(
        (l) => l.status === 'active' && l.products.includes('endpoint'),
      );
      return active.length > 0 ? Math.max(...active.map((l) => l.seats)) : null;
    },
  };
}

export type Licensing = ReturnType<typeof createLicensing>;

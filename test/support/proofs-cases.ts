import { createHash, randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { newDevice } from './endpoint-cases.js';
import type { Tenant, TestServer } from './harness.js';
import { addRouteCases } from './route-cases.js';

/** A one-page A4 proof PDF, as the extension makes them (pdf-lib), different each call. */
export async function proofPdf(text = 'Proof document'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595.28, 841.89]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(`${text} ${randomBytes(4).toString('hex')}`, { x: 50, y: 780, size: 14, font });
  return doc.save();
}

export const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export function proofMetadata(pdf: Uint8Array, over: Record<string, unknown> = {}) {
  return {
    hash: sha256(pdf),
    timestamp: '2026-06-01T10:00:00.000Z',
    platform: 'chatgpt.com',
    tokenCount: 2,
    riskScore: 23,
    epsVersion: '1.4.0',
    tier: 'business',
    tokenTypes: ['NAME', 'EMAIL'],
    ...over,
  };
}

export function proofForm(pdf: Uint8Array, metadata: unknown = proofMetadata(pdf)): FormData {
  const form = new FormData();
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'proof.pdf');
  form.append('metadata', typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  return form;
}

/** A proof of the tenant, uploaded by a new device of it through the API. */
export async function newProof(t: TestServer, tenant: Tenant) {
  const device = await newDevice(t, tenant);
  const pdf = await proofPdf();
  const res = await t.request('POST', '/api/v1/eps/proof', { key: device.deviceToken, form: proofForm(pdf) });
  if (res.status !== 201) throw new Error(`proof upload failed: ${res.status} ${res.text}`);
  return { id: res.body.id as string, deviceId: device.deviceId, pdf };
}

// The admin operations: a session of these roles, or an API key of the admin scope (never a products key).
const ADMINS = ['owner', 'admin'];

addRouteCases(
  {
    method: 'POST',
    route: '/api/v1/eps/proof',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => {
      const pdf = await proofPdf();
      return { path: '/api/v1/eps/proof', form: proofForm(pdf) };
    },
    happyStatus: 201,
    bad: async () => {
      const pdf = await proofPdf();
      return {
        path: '/api/v1/eps/proof',
        form: proofForm(pdf, proofMetadata(pdf, { hash: `sha256:${'0'.repeat(64)}` })),
      };
    },
  },
  {
    method: 'GET',
    route: '/api/v1/eps/proof/list',
    auth: 'session',
    allowed: ADMINS,
    happy: async () => ({ path: '/api/v1/eps/proof/list?perPage=5' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/eps/proof/list?perPage=1000' }),
    foreign: async (t, owner) => ({
      path: `/api/v1/eps/proof/list?deviceId=${(await newDevice(t, owner)).deviceId}`,
    }),
  },
  {
    method: 'GET',
    route: '/api/v1/eps/proof/:id',
    auth: 'session',
    allowed: ADMINS,
    happy: async (t, tenant) => ({ path: `/api/v1/eps/proof/${(await newProof(t, tenant)).id}` }),
    happyStatus: 200,
    bad: async (t, tenant) => ({ path: `/api/v1/eps/proof/${(await newProof(t, tenant)).id}?download=yes` }),
    foreign: async (t, owner) => ({ path: `/api/v1/eps/proof/${(await newProof(t, owner)).id}?download=1` }),
  },
  {
    method: 'DELETE',
    route: '/api/v1/eps/proof/:id',
    auth: 'session',
    allowed: ADMINS,
    happy: async (t, tenant) => ({ path: `/api/v1/eps/proof/${(await newProof(t, tenant)).id}` }),
    happyStatus: 200,
    foreign: async (t, owner) => ({ path: `/api/v1/eps/proof/${(await newProof(t, owner)).id}` }),
  },
);

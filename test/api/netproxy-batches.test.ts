import assert from 'node:assert/strict';
import { get } from 'node:http';
import { describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import type { Tenant } from '../support/harness.js';
import { netProxySuite } from './netproxy-support.js';

// Anthropic message batches through the network proxy (docs/netproxy.md, "Anthropic batch results"): the
// batch's creation records which vault session its requests were tokenized into, and its results (JSONL)
// come back restored line by line, for the organization that created it and while the session lives.
const EMAIL = 'ingrid.solberg@example.com';
const PROMPT = `Write to ${EMAIL} about the renewal.`;

const suite = netProxySuite('Batches');

const headersOf = (tenant: Tenant) => ({
  'x-service-key': tenant.al,
  'x-service-organization': tenant.org.id,
});

function anthropicFor(tenant: Tenant): Anthropic {
  return new Anthropic({
    apiKey: 'a-caller',
    baseURL: `${suite.base}/anthropic`,
    defaultHeaders: headersOf(tenant),
    maxRetries: 0,
  });
}

const request = (n: number, content: string) => ({
  custom_id: `r${n}`,
  params: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user' as const, content }] },
});

/** Creates a batch through the proxy; its id and the session its requests were tokenized into. */
async function createBatch(tenant: Tenant, contents: string[]): Promise<{ id: string; session: string }> {
  const created = await anthropicFor(tenant)
    .messages.batches.create({ requests: contents.map((c, n) => request(n, c)) })
    .withResponse();
  const session = created.response.headers.get('x-svc-vault-session') ?? '';
  assert.match(session, /^sess_/);
  return { id: created.data.id, session };
}

/** Every result's first text, in order, as the official SDK reads the results. */
async function resultTexts(tenant: Tenant, id: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const line of await anthropicFor(tenant).messages.batches.results(id)) {
    const r = line.result;
    texts.push(
      r.type === 'succeeded' && r.message.content[0]?.type === 'text' ? r.message.content[0].text : '',
    );
  }
  return texts;
}

/** The results GET as sent, with the answer's trailers (fetch does not show them). */
function fetchResults(
  tenant: Tenant,
  id: string,
): Promise<{
  status: number;
  headers: Record<string, unknown>;
  body: string;
  trailers: Record<string, string>;
}> {
  return new Promise((resolve, reject) => {
    const url = `${suite.base}/anthropic/v1/messages/batches/${id}/results`;
    get(
      url,
      { headers: { ...headersOf(tenant), 'x-api-key': 'a-caller', 'anthropic-version': '2023-06-01' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts).toString('utf8'),
            trailers: res.trailers as Record<string, string>,
          }),
        );
        res.on('error', reject);
      },
    ).on('error', reject);
  });
}

describe('network proxy: Anthropic batch results are restored with the session of their creation', () => {
  it('results come back restored through the SDK; the count is a trailer, the session named', async () => {
    const { id, session } = await createBatch(suite.mine, [PROMPT, 'No personal data here.']);
    assert.ok(!suite.fake.lastRequest()?.raw.includes(EMAIL), 'the provider got tokens only');
    assert.deepEqual(await resultTexts(suite.mine, id), [PROMPT, 'No personal data here.']);
    const raw = await fetchResults(suite.mine, id);
    assert.equal(raw.status, 200);
    assert.equal(raw.headers['x-svc-vault-session'], session);
    assert.equal(raw.headers['x-svc-rehydration'], undefined);
    assert.equal(raw.headers['x-svc-rehydrated-count'], undefined, 'known at the end only: a trailer');
    assert.equal(raw.trailers['x-svc-rehydrated-count'], '1');
    assert.equal(raw.trailers['x-svc-rehydration'], undefined);
    const lines = raw.body.split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[2], '');
    assert.equal(JSON.parse(lines[0] as string).result.message.content[0].text, PROMPT);
  });

  it("another organization's results GET of the same batch id is not restored: unknown_batch", async () => {
    const { id } = await createBatch(suite.mine, [PROMPT]);
    const other = await suite.env.t.tenant({ name: 'Batches other' });
    const [text] = await resultTexts(other, id);
    assert.match(String(text), /^Write to TKN_EMAIL_\w+ about the renewal\.$/);
    assert.ok(!String(text).includes(EMAIL));
    const raw = await fetchResults(other, id);
    assert.equal(raw.headers['x-svc-rehydration'], 'unknown_batch');
    assert.equal(raw.headers['x-svc-rehydrated-count'], '0');
    assert.equal(raw.headers['x-svc-vault-session'], undefined);
    assert.ok(!raw.body.includes(EMAIL));
    // The creator still gets them restored.
    assert.deepEqual(await resultTexts(suite.mine, id), [PROMPT]);
  });

  it('an expired session is not restored nor prolonged: session_expired; its record goes with it when purged', async () => {
    const { id, session } = await createBatch(suite.mine, [PROMPT]);
    const { db } = suite.env.t.ctx.storage;
    // As the organization's dlp.sessionTtlHours leaves it once passed.
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.updateTable('dlp_sessions').set({ expires_at: past }).where('id', '=', session).execute();
    const [text] = await resultTexts(suite.mine, id);
    assert.match(String(text), /^Write to TKN_EMAIL_\w+ about the renewal\.$/);
    const raw = await fetchResults(suite.mine, id);
    assert.equal(raw.headers['x-svc-rehydration'], 'session_expired');
    assert.equal(raw.headers['x-svc-rehydrated-count'], '0');
    assert.ok(!raw.body.includes(EMAIL));
    const row = await db
      .selectFrom('dlp_sessions')
      .select('expires_at')
      .where('id', '=', session)
      .executeTakeFirst();
    assert.equal(row?.expires_at, past, 'the lookup did not extend the session');
    // The vault's retention job removes the session, and the batch's record with it.
    await suite.env.t.ctx.vault.purgeExpired();
    const left = await db.selectFrom('netproxy_batches').selectAll().where('batch_id', '=', id).execute();
    assert.deepEqual(left, []);
    assert.equal((await fetchResults(suite.mine, id)).headers['x-svc-rehydration'], 'unknown_batch');
  });

  it('a large results file, its lines split across reads, streams back restored line for line', async () => {
    const n = 400;
    const contents = Array.from(
      { length: n },
      (_, i) => `Écris à person${i}@example.com au sujet du dossier ${i}.`,
    );
    const { id } = await createBatch(suite.mine, contents);
    // The fake writes the JSONL in pieces of 997 bytes, a millisecond apart: lines (and characters) cut.
    suite.fake.setBehavior({ byteChunk: 997 });
    const raw = await fetchResults(suite.mine, id);
    assert.equal(raw.status, 200);
    assert.equal(raw.trailers['x-svc-rehydrated-count'], String(n));
    const lines = raw.body.split('\n');
    assert.equal(lines.length, n + 1);
    lines.slice(0, n).forEach((l, i) => {
      const parsed = JSON.parse(l);
      assert.equal(parsed.custom_id, `r${i}`);
      assert.equal(parsed.result.message.content[0].text, contents[i]);
    });
    assert.deepEqual(await resultTexts(suite.mine, id), contents);
  });
});

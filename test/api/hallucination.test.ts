import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIMITS } from '../../src/engines/hallucination/index.js';
import { CORRECTIONS_CACHE_TTL_MS, MAX_CORRECTIONS_PER_ORG } from '../../src/modules/hallucination/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

const clock = new ManualClock('2026-06-10T09:00:05.000Z');
let t: TestServer;
let mine: Tenant;
let other: Tenant;

before(async () => {
  t = await startTestServer({ clock });
  mine = await t.tenant({ name: 'Checker' });
  other = await t.tenant({ name: 'Bystander' });
});
after(async () => t.close());

const check = (tenant: Tenant, body: unknown, key = tenant.al) =>
  t.request('POST', '/api/v1/hallucination', { key, body });
const correct = (tenant: Tenant, body: unknown) =>
  t.request('POST', '/api/v1/hallucination/correct', { key: tenant.al, body });

const EN = [
  'The Rhine is about 1,230 kilometres long and flows into the North Sea. Its source is in the Swiss Alps.',
  'Basel has been an important port on the river since the Middle Ages.',
];
const FR = [
  'La tour Eiffel a été achevée en 1889. Elle mesure 330 mètres et se trouve à Paris.',
  'Le musée du Louvre a ouvert ses portes en 1793.',
];
const DE = [
  'Der Bodensee liegt an der Grenze von Deutschland, Österreich und der Schweiz. Er ist 63 Kilometer lang.',
  'Die Stadt Konstanz liegt am Ufer des Sees.',
];

const CASES: { lang: string; sources: string[]; claim: string; verdict: string }[] = [
  { lang: 'en', sources: EN, claim: 'The Rhine flows into the North Sea.', verdict: 'supported' },
  { lang: 'en', sources: EN, claim: 'The Rhine is about 2,500 kilometres long.', verdict: 'contradicted' },
  {
    lang: 'en',
    sources: EN,
    claim: 'The Rhine is famous for its vineyards and castles.',
    verdict: 'unsupported',
  },
  {
    lang: 'en',
    sources: EN,
    claim: 'The Rhine flows into the North Sea and is famous for its castles.',
    verdict: 'partially_supported',
  },
  { lang: 'fr', sources: FR, claim: 'La tour Eiffel a été achevée en 1889.', verdict: 'supported' },
  { lang: 'fr', sources: FR, claim: 'La tour Eiffel a été achevée en 1925.', verdict: 'contradicted' },
  {
    lang: 'fr',
    sources: FR,
    claim: 'La tour Eiffel est peinte en rouge chaque année.',
    verdict: 'unsupported',
  },
  {
    lang: 'fr',
    sources: FR,
    claim: 'La tour Eiffel mesure 330 mètres et attire des millions de visiteurs chinois.',
    verdict: 'partially_supported',
  },
  { lang: 'de', sources: DE, claim: 'Der Bodensee ist 63 Kilometer lang.', verdict: 'supported' },
  { lang: 'de', sources: DE, claim: 'Der Bodensee ist 120 Kilometer lang.', verdict: 'contradicted' },
  { lang: 'de', sources: DE, claim: 'Im Bodensee leben viele seltene Fischarten.', verdict: 'unsupported' },
  {
    lang: 'de',
    sources: DE,
    claim: 'Der Bodensee ist 63 Kilometer lang und hat eine Fähre nach Amerika.',
    verdict: 'partially_supported',
  },
];

function assertCheckShape(body: any, sources: string[]) {
  assert.equal(typeof body.score, 'number');
  assert.ok(body.score >= 0 && body.score <= 1, `score ${body.score}`);
  assert.ok(Array.isArray(body.evidence));
  assert.ok(Array.isArray(body.corrections));
  assert.ok(Array.isArray(body.claims) && body.claims.length > 0);
  for (const e of body.evidence) {
    assert.equal(typeof e.claim, 'string');
    assert.ok(Number.isInteger(e.source_index));
    assert.equal(typeof e.match, 'string');
    assert.ok(e.confidence >= 0 && e.confidence <= 1);
    // SPEC: a zero-based index into the submitted sources, whatever decided the sub-claim.
    assert.ok(e.source_index >= 0 && e.source_index < sources.length, `source_index ${e.source_index}`);
    // The match is text of the cited source, not a paraphrase of it (two separate sentences of it are
    // joined by " … " when a supported sub-claim needed both).
    for (const sentence of e.match.split(/ … |(?<=\.) /))
      assert.ok(sources[e.source_index]!.includes(sentence));
  }
}

describe('POST /api/v1/hallucination', () => {
  for (const c of CASES) {
    it(`${c.lang}: "${c.claim}" is ${c.verdict}`, async () => {
      const res = await check(mine, { claim: c.claim, sources: c.sources });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.verdict, c.verdict);
      assert.equal(res.body.language, c.lang);
      assertCheckShape(res.body, c.sources);
      if (c.verdict === 'supported') assert.ok(res.body.score >= 0.8);
      if (c.verdict === 'contradicted') assert.ok(res.body.score <= 0.25);
      if (c.verdict !== 'unsupported') assert.ok(res.body.evidence.some((e: any) => e.source_index === 0));
    });
  }

  it('cites the source that holds the fact, by zero-based index', async () => {
    const res = await check(mine, { claim: 'Le musée du Louvre a ouvert ses portes en 1793.', sources: FR });
    assert.equal(res.status, 200);
    assert.equal(res.body.verdict, 'supported');
    assert.equal(res.body.evidence[0].source_index, 1);
    assert.equal(res.body.evidence[0].match, FR[1]);
  });

  it('accepts the sw key as well as the al key', async () => {
    const res = await check(mine, { claim: CASES[0]!.claim, sources: EN }, mine.sw);
    assert.equal(res.status, 200);
    assert.equal(res.body.verdict, 'supported');
  });

  it('accepts sources at the documented limits, beyond the server-wide body limit', async () => {
    // Two bytes per character in UTF-8: 20 × 50,000 characters make a 2 MB body, twice the default limit.
    const sentence = 'Die Brücke über den Fluß wurde ganz aus Stahl gebaut und ist grün gestrichen. ';
    const big = sentence
      .repeat(Math.ceil(LIMITS.maxSourceChars / sentence.length))
      .slice(0, LIMITS.maxSourceChars);
    const sources = Array.from({ length: LIMITS.maxSources }, () => big);
    const res = await check(mine, { claim: 'Die Brücke ist grün gestrichen.', sources });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.verdict, 'supported');
  });
});

describe('bad input answers 400 naming the problem', () => {
  const tooMany = Array.from({ length: LIMITS.maxSources + 1 }, (_, i) => `Source number ${i}.`);
  const BAD: { what: string; body: unknown; names: RegExp }[] = [
    { what: 'empty claim', body: { claim: '', sources: EN }, names: /'claim'.*empty/ },
    { what: 'blank claim', body: { claim: '   \n ', sources: EN }, names: /'claim'.*blank/ },
    { what: 'missing claim', body: { sources: EN }, names: /'claim'.*required/ },
    { what: 'claim not a string', body: { claim: 7, sources: EN }, names: /'claim'.*string/ },
    {
      what: 'claim too long',
      body: { claim: 'a'.repeat(LIMITS.maxClaimChars + 1), sources: EN },
      names: /'claim'.*10000/,
    },
    { what: 'no sources', body: { claim: 'The Rhine is long.', sources: [] }, names: /'sources'/ },
    { what: 'missing sources', body: { claim: 'The Rhine is long.' }, names: /'sources'.*required/ },
    {
      what: 'sources not an array',
      body: { claim: 'The Rhine is long.', sources: 'EN' },
      names: /'sources'.*array/,
    },
    {
      what: 'a source that is not a string',
      body: { claim: 'The Rhine is long.', sources: ['The Rhine is long.', 42] },
      names: /'sources\[1\]'.*string/,
    },
    {
      what: 'a source that is an object',
      body: { claim: 'The Rhine is long.', sources: [{ text: 'The Rhine is long.' }] },
      names: /'sources\[0\]'.*string/,
    },
    {
      what: 'an empty source',
      body: { claim: 'The Rhine is long.', sources: [''] },
      names: /'sources\[0\]'.*empty/,
    },
    {
      what: 'a blank source',
      body: { claim: 'The Rhine is long.', sources: ['The Rhine is long.', '  '] },
      names: /'sources\[1\]'.*blank/,
    },
    {
      what: 'too many sources',
      body: { claim: 'The Rhine is long.', sources: tooMany },
      names: /'sources'.*20/,
    },
    {
      what: 'a source too large',
      body: { claim: 'The Rhine is long.', sources: ['ok', 'b'.repeat(LIMITS.maxSourceChars + 1)] },
      names: /'sources\[1\]'.*50000/,
    },
    {
      // 30,000 emoji are 30,000 code points but 60,000 UTF-16 units, which is what the engine counts.
      what: 'a source too large in UTF-16 units',
      body: { claim: 'The Rhine is long.', sources: ['🌊'.repeat(30_000)] },
      names: /'sources\[0\]'.*50000/,
    },
    {
      what: 'an unknown field',
      body: { claim: 'The Rhine is long.', sources: EN, temperature: 0 },
      names: /'temperature'.*not allowed/,
    },
  ];
  for (const b of BAD) {
    it(b.what, async () => {
      const res = await check(mine, b.body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'invalid_request');
      assert.equal(res.body.statusCode, 400);
      assert.match(res.body.message, b.names);
    });
  }

  it('does not count refused requests against the quota', async () => {
    const tenant = await t.tenant({ plan: 'pro' });
    await check(tenant, { claim: '', sources: EN });
    await check(tenant, { claim: 'x', sources: [] });
    assert.equal((await t.ctx.limits.usage(tenant.org, 'hallucination')).requestsUsed, 0);
    assert.equal((await check(tenant, { claim: CASES[0]!.claim, sources: EN })).status, 200);
    assert.equal((await t.ctx.limits.usage(tenant.org, 'hallucination')).requestsUsed, 1);
  });

  const BAD_CORRECTIONS: { what: string; body: Record<string, unknown>; names: RegExp }[] = [
    { what: 'empty originalClaim', body: { originalClaim: '' }, names: /'originalClaim'.*empty/ },
    { what: 'blank correctedClaim', body: { correctedClaim: '  ' }, names: /'correctedClaim'.*blank/ },
    { what: 'empty source', body: { source: '' }, names: /'source'.*empty/ },
    { what: 'missing source', body: { source: undefined }, names: /'source'.*required/ },
    { what: 'source not a string', body: { source: 5 }, names: /'source'.*string/ },
    { what: 'field too long', body: { originalClaim: 'w '.repeat(1_001) }, names: /'originalClaim'.*2000/ },
    {
      what: 'corrected claim equal to the original',
      body: { correctedClaim: ' the SKY is blue. ' },
      names: /'correctedClaim'.*differ/,
    },
  ];
  for (const b of BAD_CORRECTIONS) {
    it(`correction: ${b.what}`, async () => {
      const body = {
        originalClaim: 'The sky is blue.',
        correctedClaim: 'The sky is grey.',
        source: 'x',
        ...b.body,
      };
      const res = await correct(mine, JSON.parse(JSON.stringify(body)));
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.message, b.names);
    });
  }
});

describe('corrections', () => {
  const SOURCES = ['Our premium plan costs 49 euros per month and includes priority support by phone.'];
  const WRONG = 'The premium plan costs 49 euros per month.';
  const PARAPHRASE = 'Premium costs 49 euros each month.';
  const RIGHT = 'The premium plan costs 59 euros per month.';

  it('flip a later check of the same organization, and a paraphrase, but not other organizations', async () => {
    const tenant = await t.tenant({ plan: 'pro' });
    const bystander = await t.tenant({ plan: 'pro' });
    const before = await check(tenant, { claim: WRONG, sources: SOURCES });
    assert.equal(before.body.verdict, 'supported');

    const stored = await correct(tenant, {
      originalClaim: WRONG,
      correctedClaim: RIGHT,
      source: 'pricing page 2026',
    });
    assert.equal(stored.status, 201, stored.text);
    assert.match(stored.body.id, /^cor_[0-9A-Za-z]{22}$/);
    assert.equal(stored.body.createdAt, clock.now().toISOString());
    assert.deepEqual(
      { o: stored.body.originalClaim, c: stored.body.correctedClaim, s: stored.body.source },
      { o: WRONG, c: RIGHT, s: 'pricing page 2026' },
    );

    for (const claim of [WRONG, PARAPHRASE]) {
      const res = await check(tenant, { claim, sources: SOURCES });
      assert.equal(res.status, 200);
      assert.equal(res.body.verdict, 'contradicted', claim);
      assert.ok(res.body.score <= 0.25);
      assertCheckShape(res.body, SOURCES);
      const [e] = res.body.corrections;
      assert.ok(e, JSON.stringify(res.body));
      assert.equal(e.correctedClaim, RIGHT);
      assert.equal(e.correctionId, stored.body.id);
      assert.equal(e.verdict, 'contradicted');
      assert.ok(!res.body.evidence.some((x: any) => x.claim === e.claim), 'no source evidence item for it');
    }
    // Unrelated claims of the same organization keep their verdict.
    const unrelated = await check(tenant, {
      claim: 'The premium plan includes priority support by phone.',
      sources: SOURCES,
    });
    assert.equal(unrelated.body.verdict, 'supported');
    // Another organization never sees them.
    for (const tn of [bystander, other]) {
      const res = await check(tn, { claim: WRONG, sources: SOURCES });
      assert.equal(res.body.verdict, 'supported');
      assert.deepEqual(res.body.corrections, []);
    }

    // Deleting it restores the sources' verdict at once (the cache is invalidated on write).
    const del = await t.request('DELETE', `/api/v1/hallucination/corrections/${stored.body.id}`, {
      key: tenant.al,
    });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { deleted: true, id: stored.body.id });
    assert.equal((await check(tenant, { claim: WRONG, sources: SOURCES })).body.verdict, 'supported');
    const again = await t.request('DELETE', `/api/v1/hallucination/corrections/${stored.body.id}`, {
      key: tenant.al,
    });
    assert.equal(again.status, 404);
    assert.equal(again.body.error, 'not_found');
  });

  it('work in German, compounds and paraphrase included', async () => {
    const tenant = await t.tenant();
    const sources = ['Der Jahresurlaub beträgt 25 Tage für alle Vollzeitbeschäftigten.'];
    const paraphrase = 'Vollzeitbeschäftigte haben 25 Tage Urlaub im Jahr.';
    assert.equal((await check(tenant, { claim: paraphrase, sources })).body.verdict, 'supported');
    const stored = await correct(tenant, {
      originalClaim: 'Der Jahresurlaub beträgt 25 Tage.',
      correctedClaim: 'Der Jahresurlaub beträgt 28 Tage.',
      source: 'Tarifvertrag 2026',
    });
    assert.equal(stored.status, 201);
    const res = await check(tenant, { claim: paraphrase, sources });
    assert.equal(res.body.verdict, 'contradicted');
    assert.equal(res.body.corrections[0].correctionId, stored.body.id);
  });

  it("cannot delete another organization's correction (404) and it stays in force", async () => {
    const owner = await t.tenant();
    const stored = await correct(owner, { originalClaim: WRONG, correctedClaim: RIGHT, source: 'pricing' });
    const res = await t.request('DELETE', `/api/v1/hallucination/corrections/${stored.body.id}`, {
      key: other.al,
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'not_found');
    assert.equal((await check(owner, { claim: WRONG, sources: SOURCES })).body.verdict, 'contradicted');
  });

  it('are listed newest first, page by page, per organization', async () => {
    const tenant = await t.tenant();
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) {
      clock.advance(1_000);
      const r = await correct(tenant, {
        originalClaim: `Build ${i} has ${i} bugs.`,
        correctedClaim: `Build ${i} has ${i + 10} bugs.`,
        source: 'tracker',
      });
      ids.push(r.body.id);
    }
    const list = (q: string, tn = tenant) =>
      t.request('GET', `/api/v1/hallucination/corrections${q}`, { key: tn.al });
    const p1 = await list('?perPage=2');
    assert.equal(p1.status, 200);
    assert.deepEqual(
      p1.body.corrections.map((c: any) => c.id),
      [ids[2], ids[1]],
    );
    assert.deepEqual(p1.body.pagination, { total: 3, page: 1, perPage: 2, limit: MAX_CORRECTIONS_PER_ORG });
    const p2 = await list('?perPage=2&page=2');
    assert.deepEqual(
      p2.body.corrections.map((c: any) => c.id),
      [ids[0]],
    );
    assert.equal(p2.body.corrections[0].originalClaim, 'Build 1 has 1 bugs.');
    const dflt = await list('');
    assert.equal(dflt.body.pagination.perPage, 20);
    assert.equal(dflt.body.corrections.length, 3);
    const empty = await list('', await t.tenant());
    assert.deepEqual(empty.body, {
      corrections: [],
      pagination: { total: 0, page: 1, perPage: 20, limit: 500 },
    });
    for (const q of ['?page=0', '?perPage=0', '?perPage=101', '?page=x', '?sort=asc']) {
      const bad = await list(q);
      assert.equal(bad.status, 400, q);
      assert.equal(bad.body.error, 'invalid_request');
    }
  });

  it(`are capped at ${MAX_CORRECTIONS_PER_ORG} per organization (409), and checks still use them all`, async () => {
    const tenant = await t.tenant();
    const at = clock.now().toISOString();
    const rows = Array.from({ length: MAX_CORRECTIONS_PER_ORG }, (_, i) => ({
      id: `cor_cap${String(i).padStart(19, '0')}`,
      org_id: tenant.org.id,
      original_claim: `Warehouse ${i} stores ${i + 1000} pallets of flour.`,
      corrected_claim: `Warehouse ${i} stores ${i + 2000} pallets of flour.`,
      source: 'inventory',
      created_by_key: null,
      created_at: at,
    }));
    for (let i = 0; i < rows.length; i += 100) {
      await t.ctx.storage.db
        .insertInto('hallucination_corrections')
        .values(rows.slice(i, i + 100))
        .execute();
    }
    const full = await correct(tenant, { originalClaim: 'A is 1.', correctedClaim: 'A is 2.', source: 'x' });
    assert.equal(full.status, 409, full.text);
    assert.equal(full.body.error, 'conflict');
    assert.match(full.body.message, /500/);

    t.ctx.hallucination.forget(tenant.org.id);
    const sources = ['Warehouse 417 stores 1417 pallets of flour and 20 pallets of sugar.'];
    const res = await check(tenant, { claim: 'Warehouse 417 stores 1417 pallets of flour.', sources });
    assert.equal(res.body.verdict, 'contradicted');
    assert.equal(res.body.corrections[0].correctionId, rows[417]!.id);
    // The right figure is not touched by the correction of another warehouse.
    const ok = await check(tenant, { claim: 'Warehouse 417 stores 20 pallets of sugar.', sources });
    assert.equal(ok.body.verdict, 'supported');

    await t.request('DELETE', `/api/v1/hallucination/corrections/${rows[0]!.id}`, { key: tenant.al });
    const room = await correct(tenant, { originalClaim: 'A is 1.', correctedClaim: 'A is 2.', source: 'x' });
    assert.equal(room.status, 201);
  });

  it('are cached per organization briefly: a write made elsewhere applies once the cache expires', async () => {
    const tenant = await t.tenant();
    const claim = 'The premium plan costs 49 euros per month.';
    assert.equal((await check(tenant, { claim, sources: SOURCES })).body.verdict, 'supported');
    // Written past this process's service, as another API process would.
    await t.ctx.storage.db
      .insertInto('hallucination_corrections')
      .values({
        id: 'cor_elsewhere000000000000',
        org_id: tenant.org.id,
        original_claim: WRONG,
        corrected_claim: RIGHT,
        source: 'other process',
        created_by_key: null,
        created_at: clock.now().toISOString(),
      })
      .execute();
    assert.equal((await check(tenant, { claim, sources: SOURCES })).body.verdict, 'supported');
    clock.advance(CORRECTIONS_CACHE_TTL_MS + 1);
    assert.equal((await check(tenant, { claim, sources: SOURCES })).body.verdict, 'contradicted');
  });
});

describe('limits', () => {
  it('sets the rate-limit headers and refuses the 11th request of a minute on the Free plan', async () => {
    clock.set('2026-06-11T10:00:02.000Z');
    const free = await t.tenant({ plan: 'free' });
    const windowEnd = String(Math.ceil(Date.parse('2026-06-11T10:01:00.000Z') / 1000));
    for (let i = 1; i <= 10; i++) {
      const res = await check(free, { claim: CASES[0]!.claim, sources: EN });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '10');
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(10 - i));
      assert.equal(res.headers.get('x-ratelimit-reset'), windowEnd);
    }
    const over = await t.request('GET', '/api/v1/hallucination/corrections', { key: free.al });
    assert.equal(over.status, 429);
    assert.equal(over.body.error, 'rate_limit_exceeded');
    assert.equal(over.body.retryAfter, 58);
  });

  it('counts every hallucination request against its own monthly quota and refuses when spent', async () => {
    clock.set('2026-06-12T08:00:00.000Z');
    const free = await t.tenant({ plan: 'free' });
    const org = (await t.ctx.orgs.getOrg(free.org.id))!;
    for (let i = 0; i < 999; i++) await t.ctx.limits.consume(org, 'hallucination');
    const last = await correct(free, { originalClaim: 'B is 1.', correctedClaim: 'B is 2.', source: 'x' });
    assert.equal(last.status, 201);
    assert.equal((await t.ctx.limits.usage(org, 'hallucination')).requestsUsed, 1000);
    const over = await check(free, { claim: CASES[0]!.claim, sources: EN });
    assert.equal(over.status, 403);
    assert.equal(over.body.error, 'quota_exceeded');
    assert.ok(over.headers.get('x-ratelimit-limit'));
    // Detection keeps its own quota.
    assert.equal((await t.request('GET', '/api/v1/stats', { key: free.al })).status, 200);
  });

  it('answers 403 entitlement_missing when the product is not enabled', async () => {
    const tenant = await t.tenant({ products: ['detection'] });
    const res = await check(tenant, { claim: CASES[0]!.claim, sources: EN });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'entitlement_missing');
  });
});

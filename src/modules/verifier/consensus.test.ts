import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type Behaviour, startFakeModels } from '../../../test/fakes/consensus-models.js';
import { startTestVerifier, type TestVerifier } from '../../../test/support/verifier-harness.js';

const UNKNOWN_TO_SOURCES = 'The Eiffel Tower is in Paris.';

async function withModels(
  behaviours: Behaviour[],
  fn: (v: TestVerifier, bodies: string[]) => Promise<void>,
): Promise<void> {
  const fakes = await startFakeModels(behaviours);
  const v = await startTestVerifier({ models: fakes.models });
  try {
    await fn(v, fakes.bodies);
  } finally {
    await v.close();
    await fakes.close();
  }
}

async function verify(v: TestVerifier, response: string, options: Record<string, unknown>, context?: string) {
  const res = await v.request('POST', '/api/verify', {
    key: v.user,
    body: { response, options, ...(context ? { context } : {}) },
  });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe('multi-LLM consensus against OpenAI-compatible servers', () => {
  it('all four agree: 80, with the warning that five or more are recommended', async () => {
    await withModels(['true', 'true', 'true', 'true'], async (v) => {
      const r = await verify(v, UNKNOWN_TO_SOURCES, { multiLlm: true, llmCount: 4 });
      const [c] = r.claims;
      assert.equal(c.verdict, 'supported');
      assert.equal(c.confidence, 80);
      assert.equal(c.decidedBy, 'llm_consensus');
      assert.deepEqual(c.votes, { asked: 4, answered: 4, agree: 4, disagree: 0, unsure: 0 });
      assert.equal(r.score, 80);
      assert.equal(r.verified, true);
      assert.ok(r.warnings.some((w: string) => /five or more LLMs are recommended/i.test(w)));
    });
  });

  it('three of four: 60; two against two: divergence at 40, nothing decided', async () => {
    await withModels(['true', 'true', 'false', 'true'], async (v) => {
      const [c] = (await verify(v, UNKNOWN_TO_SOURCES, { multiLlm: true, llmCount: 4 })).claims;
      assert.equal(c.verdict, 'supported');
      assert.equal(c.confidence, 60);
    });
    await withModels(['true', 'false', 'false', 'true'], async (v) => {
      const r = await verify(v, UNKNOWN_TO_SOURCES, { multiLlm: true, llmCount: 4 });
      assert.equal(r.claims[0].verdict, 'not_found');
      assert.equal(r.claims[0].confidence, 40);
      assert.equal(r.verified, false);
    });
  });

  it('a validated internal source decides at 100 even when every model disagrees, and no model is asked', async () => {
    await withModels(['true', 'true', 'true', 'true', 'true'], async (v, bodies) => {
      writeFileSync(join(v.docsDir, 'tower.txt'), 'The Eiffel Tower is 330 metres tall.');
      const src = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: { type: 'file', url: join(v.docsDir, 'tower.txt') },
      });
      await v.settled(src.body.id);
      await v.request('POST', `/api/sources/${src.body.id}/validate`, { key: v.admin });
      const r = await verify(v, 'The Eiffel Tower is 400 metres tall.', { multiLlm: true, llmCount: 5 });
      assert.equal(r.claims[0].verdict, 'contradicted');
      assert.equal(r.claims[0].confidence, 100);
      assert.equal(r.claims[0].decidedBy, 'validated_source');
      assert.equal(bodies.length, 0, 'a claim a validated source decided never leaves');
      assert.deepEqual(r.warnings, []);
    });
  });

  it('a model that times out or answers garbage abstains; the others still decide', async () => {
    await withModels(['true', 'slow', 'true', 'broken', 'true', 'true'], async (v) => {
      const r = await verify(v, UNKNOWN_TO_SOURCES, { multiLlm: true, llmCount: 6 });
      const [c] = r.claims;
      assert.deepEqual(c.votes, { asked: 6, answered: 4, agree: 4, disagree: 0, unsure: 0 });
      assert.equal(c.confidence, 80);
      assert.ok(r.warnings.some((w: string) => w.startsWith('4 model(s) answered')));
    });
  });

  it('two models (llmCount 2) agreeing: 80; more asked for than configured is a warning', async () => {
    await withModels(['false', 'false'], async (v) => {
      const r = await verify(v, UNKNOWN_TO_SOURCES, { multiLlm: true, llmCount: 3 });
      assert.equal(r.claims[0].verdict, 'contradicted');
      assert.equal(r.claims[0].confidence, 80);
      assert.ok(r.warnings.includes('3 models were asked for; 2 are configured.'));
    });
  });

  it('sends only the undecided claims, tokenized; never the context or a source', async () => {
    await withModels(['true', 'true', 'true', 'true', 'true'], async (v, bodies) => {
      writeFileSync(join(v.docsDir, 'hr.txt'), 'Payroll questions go to the HR desk on floor 3.');
      const src = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: { type: 'file', url: join(v.docsDir, 'hr.txt') },
      });
      await v.settled(src.body.id);
      await v.request('POST', `/api/sources/${src.body.id}/validate`, { key: v.admin });
      const r = await verify(
        v,
        'Payroll questions go to the HR desk on floor 3. Write to anna.muster@example.com for a new badge.',
        { multiLlm: true, llmCount: 5 },
        'Where do I ask about my salary, my colleague Luc Favre asked',
      );
      assert.equal(r.claims.length, 2);
      assert.equal(bodies.length, 5);
      for (const raw of bodies) {
        const user = JSON.parse(raw).messages.find((m: { role: string }) => m.role === 'user')
          .content as string;
        assert.match(user, /^1\. Write to TKN_EMAIL_[0-9a-z]+ for a new badge$/);
        assert.ok(!raw.includes('anna.muster'), 'personal data is tokenized');
        assert.ok(
          !raw.includes('Payroll') && !raw.includes('floor 3'),
          'a decided claim and its source stay',
        );
        assert.ok(!raw.includes('salary') && !raw.includes('Luc Favre'), 'the context stays');
      }
      assert.equal(
        r.claims[1].text,
        'Write to anna.muster@example.com for a new badge',
        'the answer keeps the original',
      );
    });
  });

  it('without multiLlm no model is asked', async () => {
    await withModels(['true', 'true'], async (v, bodies) => {
      const r = await verify(v, UNKNOWN_TO_SOURCES, { multiLlm: false });
      assert.equal(r.claims[0].verdict, 'not_found');
      assert.equal(bodies.length, 0);
    });
  });
});

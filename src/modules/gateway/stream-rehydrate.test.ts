import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chatCase, gatewayCase } from '../../../test/support/stream-cases.js';
import { fuzzCases, fuzzSeed } from '../../../test/support/stream-fuzz.js';

const SEED = fuzzSeed(1);

describe('provider proxy and chat streams: seeded fuzz of the restored answer', () => {
  // Each read is a turn of the event loop under the test runner's promise tracking: fewer, slower cases.
  const gateway = Math.ceil(fuzzCases(2000) / 6);
  it(`provider proxy (OpenAI SSE bytes -> adapter -> ChunkRehydrator): ${gateway} answers (seeds ${SEED}..${SEED + gateway - 1})`, async () => {
    const failures: string[] = [];
    for (let seed = SEED; seed < SEED + gateway && failures.length < 5; seed++) {
      const problem = await gatewayCase(seed);
      if (problem)
        failures.push(`seed ${seed} (replay: STREAM_FUZZ_SEED=${seed} STREAM_FUZZ_CASES=1): ${problem}`);
    }
    assert.deepEqual(failures, []);
  });

  const chat = fuzzCases(2000);
  it(`protected chat (StreamingRehydrator on the content deltas): ${chat} answers (seeds ${SEED}..${SEED + chat - 1})`, () => {
    const failures: string[] = [];
    for (let seed = SEED; seed < SEED + chat && failures.length < 5; seed++) {
      const problem = chatCase(seed);
      if (problem)
        failures.push(`seed ${seed} (replay: STREAM_FUZZ_SEED=${seed} STREAM_FUZZ_CASES=1): ${problem}`);
    }
    assert.deepEqual(failures, []);
  });
});

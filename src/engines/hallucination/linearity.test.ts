import { describe } from 'node:test';
import { itIsLinear } from '../../../test/support/linearity.js';
import { SAMPLED_INPUTS } from '../hostile-inputs.js';

// A check of n characters: a claim of a tenth of them (at most the claim limit) and sources of the rest,
// so that claim × source growth (the hot spots) shows as a ratio of 100. Imported inside the test,
// after the work meter has started block coverage.
describe('hallucination engine on hostile input', () => {
  itIsLinear('checkClaim', async () => {
    const { checkClaim, LIMITS } = await import('./index.js');
    return (make, n) => {
      const claimChars = Math.min(LIMITS.maxClaimChars, Math.floor(n / 10));
      const claim = make(claimChars);
      const sources: string[] = [];
      for (let rest = n - claimChars; rest > 0 && sources.length < LIMITS.maxSources; ) {
        const size = Math.min(LIMITS.maxSourceChars, rest);
        sources.push(make(size));
        rest -= size;
      }
      return () => checkClaim(claim, sources);
    };
  }, SAMPLED_INPUTS);
});

import { describe } from 'node:test';
import { itIsLinear } from '../../../test/support/linearity.js';
import { hostileCheck, hostileShard } from '../hostile-inputs.js';

// The claim checker costs the most of the engines under the work meter (about 20 s of CPU for every
// generator at both sizes), so the generators are split over linearity-1/2/3.test.ts (shard i of 3 each),
// which the test runner executes in parallel; together they cover every generator. Imported inside the
// test, after the work meter has started block coverage.
describe('hallucination engine on hostile input (shard 0 of 3)', () => {
  itIsLinear(
    'checkClaim',
    async () => {
      const { checkClaim, LIMITS } = await import('./index.js');
      return (make, n) => {
        const { claim, sources } = hostileCheck(make, n, LIMITS);
        return () => checkClaim(claim, sources);
      };
    },
    hostileShard(0, 3),
  );
});

import { describe } from 'node:test';
import { itIsLinear } from '../../../test/support/linearity.js';

// The risk score reads a list of entity types (what the DLP engine found in a proof document); the hostile
// text is cut into one "type" per character pair, so long lists of odd and repeated types are measured.
describe('risk engine on hostile input', () => {
  itIsLinear('riskScore', async () => {
    const { riskScore } = await import('./index.js');
    return (make, n) => {
      const text = make(n);
      const types: string[] = [];
      for (let i = 0; i < text.length; i += 2) types.push(text.slice(i, i + 2));
      return () => riskScore(types);
    };
  });
});

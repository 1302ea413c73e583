import { describe } from 'node:test';
import { itIsLinear } from '../../../test/support/linearity.js';

// Imported inside the test, after the work meter has started block coverage.
describe('DLP engine on hostile input', () => {
  itIsLinear('detectEntities', async () => {
    const { detectEntities } = await import('./index.js');
    return (make, n) => {
      const text = make(n);
      return () => detectEntities(text);
    };
  });
  itIsLinear('tokenize', async () => {
    const { createTokenMap, tokenize } = await import('./index.js');
    const key = new Uint8Array(32).fill(7);
    return (make, n) => {
      const text = make(n);
      return () => tokenize(text, createTokenMap(), key);
    };
  });
});

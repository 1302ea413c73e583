import { describe } from 'node:test';
import { itIsLinear } from '../../../test/support/linearity.js';

// Imported inside the test, after the work meter has started block coverage (V8 counts the blocks of
// functions compiled after that).
describe('detection engine on hostile input', () => {
  itIsLinear('analyze', async () => {
    const { analyze } = await import('./index.js');
    return (make, n) => {
      const text = make(n);
      return () => analyze(text);
    };
  });
  itIsLinear('analyzeAndSanitize', async () => {
    const { analyzeAndSanitize } = await import('./index.js');
    return (make, n) => {
      const text = make(n);
      return () => analyzeAndSanitize(text);
    };
  });
});

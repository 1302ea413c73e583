import { splitSentences } from '../../src/engines/hallucination/index.js';
import { contentTerms } from '../../src/engines/hallucination/terms.js';

/**
 * The word-overlap baseline the engine must beat: share of the claim's content words found in the best
 * source sentence, "supported" at or above the threshold.
 */
export function overlapSupported(claim: string, sources: string[], threshold = 0.6): boolean {
  const words = new Set(contentTerms(claim));
  if (words.size === 0) return false;
  let best = 0;
  for (const src of sources) {
    for (const s of splitSentences(src)) {
      const terms = new Set(contentTerms(s.text));
      let hit = 0;
      for (const w of words) if (terms.has(w)) hit++;
      best = Math.max(best, hit / words.size);
    }
  }
  return best >= threshold;
}

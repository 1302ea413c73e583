// What the protection pipeline scans on a chat request: the new turn (the history was scanned before and
// comes from the detection cache) and, for a conversation seen for the first time, about 4.5 KB of prose
// with a handful of personal data. The corpus texts (eval/dlp/corpus) are dense (about one entity per 40
// characters), so a conversation here is our own plain working prose with five corpus texts set into it,
// which gives about eight entities per 4.5 KB (0–12; some corpus texts hold none).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let corpus: string[] | null = null;
function corpusText(i: number): string {
  corpus ??= readFileSync(fileURLToPath(new URL('../../eval/dlp/corpus/test.jsonl', import.meta.url)), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { text: string }).text);
  return corpus[i % corpus.length]!;
}

// Written for this bench: office prose without personal data (no names, numbers, places).
const PROSE = [
  'Thanks for the summary, that matches what we discussed in the planning meeting last week.',
  'Could you rewrite the second paragraph so that it sounds less formal and a bit shorter?',
  'The migration of the reporting tools is on track, but the export step still needs a review.',
  'I would like a short list of the open questions before we send the draft to the client.',
  'Please keep the tone friendly and avoid technical terms where a plain word will do.',
  'We agreed to move the deadline by a few days because the test results came in late.',
  'Can you explain the difference between the two approaches in simple words?',
  'The budget section looks fine, although the figures for the second quarter seem high.',
  'Let us focus on the customer onboarding flow first and leave the dashboard for later.',
  'Here is the previous answer again; please turn it into three bullet points.',
  'The team liked the proposal, but they asked for more detail on the rollout plan.',
  'Summarise the main risks and suggest one mitigation for each of them.',
];

/** The new last turn of the network proxy's bench (bench/support/netproxy-load.ts), with personal data. */
export function chatTurn(n: number): string {
  return `Turn ${n}: please send the contract to Anna Keller at anna.keller@example.com or call +41 44 668 18 00.`;
}

/** About `bytes` characters of conversation: prose with five corpus texts set into it. */
export function chatConversation(bytes: number, seed: number): string {
  const inserts = [0, 1, 2, 3, 4].map((k) => corpusText(seed * 17 + k * 5));
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const part =
      i % 10 === 3 && inserts.length > 0 ? inserts.shift()! : PROSE[(seed * 5 + i * 7) % PROSE.length]!;
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join('\n').slice(0, bytes);
}

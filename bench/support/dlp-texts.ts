// Bench texts of a given size built from the DLP team corpus (eval/dlp/corpus/test.jsonl): real prose with
// real personal data in it, the same texts for every bench that times the DLP engine (bench:dlp, its A/B
// script and bench:extension), so their figures can be compared.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let corpus: string[] | null = null;

function corpusTexts(): string[] {
  corpus ??= readFileSync(fileURLToPath(new URL('../../eval/dlp/corpus/test.jsonl', import.meta.url)), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { text: string }).text);
  return corpus;
}

/** `bytes` characters of corpus texts joined by spaces, starting at text number `offset`. */
export function dlpTextOf(bytes: number, offset: number): string {
  const texts = corpusTexts();
  let s = '';
  for (let i = offset; s.length < bytes; i++) s += `${texts[i % texts.length]} `;
  return s.slice(0, bytes);
}

/** Passages of about this many characters: a few sentences, what one citation points to. */
export const PASSAGE_CHARS = 600;
/** A longer paragraph is cut at sentence ends (or spaces) into passages of at most this size. */
const HARD_LIMIT = 1_200;

/**
 * Cuts a document into passages at paragraph boundaries, joining short paragraphs (headings, list items)
 * with what follows, so that a passage is a readable citation and the engine sees whole sentences.
 */
export function toPassages(text: string): string[] {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .replace(/[ \t]+/g, ' ')
        .replace(/\s*\n\s*/g, '\n')
        .trim(),
    )
    .filter((p) => p.length > 0);
  const out: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim()) out.push(current.trim());
    current = '';
  };
  for (const p of paragraphs.flatMap(cutLong)) {
    if (current && current.length + p.length + 2 > PASSAGE_CHARS) flush();
    // A line without an end mark (a heading) gets one, so it does not fuse with the next sentence.
    const para = /[.!?:;…]$/.test(p) ? p : `${p}.`;
    current = current ? `${current}\n\n${para}` : para;
  }
  flush();
  return out;
}

function cutLong(p: string): string[] {
  if (p.length <= HARD_LIMIT) return [p];
  const parts: string[] = [];
  let rest = p;
  while (rest.length > HARD_LIMIT) {
    const window = rest.slice(0, HARD_LIMIT);
    let cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '));
    if (cut < HARD_LIMIT / 3) cut = window.lastIndexOf(' ');
    if (cut < HARD_LIMIT / 3) cut = HARD_LIMIT - 1;
    parts.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1);
  }
  if (rest.trim()) parts.push(rest.trim());
  return parts;
}

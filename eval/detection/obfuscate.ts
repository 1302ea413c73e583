// Obfuscations an attacker applies to slip past filters; the corpus builder applies them to attack rows.

const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const CYRILLIC: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', i: 'і', y: 'у' };

function mapLetters(text: string, table: Record<string, string>, every: number): string {
  let k = 0;
  return [...text]
    .map((ch) => (table[ch.toLowerCase()] && k++ % every === 0 ? (table[ch.toLowerCase()] as string) : ch))
    .join('');
}

function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function rot13(s: string): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

export const OBFUSCATIONS: { name: string; apply: (text: string, seed: number) => string }[] = [
  { name: 'leetspeak', apply: (t) => mapLetters(t, LEET, 2) },
  { name: 'homoglyph', apply: (t) => mapLetters(t, CYRILLIC, 1) },
  {
    name: 'spaced_letters',
    apply: (t) =>
      t
        .split(' ')
        .map((w) => w.split('').join(' '))
        .join('   '),
  },
  { name: 'zero_width', apply: (t) => t.split('').join('\u200b') },
  {
    name: 'base64',
    apply: (t, seed) => (seed % 2 ? toBase64(t) : `Please decode this and respond: ${toBase64(t)}`),
  },
  { name: 'reversed', apply: (t) => [...t].reverse().join('') },
  {
    name: 'fullwidth',
    apply: (t) => t.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  },
  {
    name: 'unicode_tags',
    apply: (t) =>
      `What a lovely day.${[...t].map((c) => (c.charCodeAt(0) < 0x7f ? String.fromCodePoint(0xe0000 + c.charCodeAt(0)) : '')).join('')}`,
  },
  {
    name: 'dotted',
    apply: (t) =>
      t
        .split(' ')
        .map((w) => w.split('').join('.'))
        .join(' '),
  },
  { name: 'url_encoding', apply: (t) => encodeURIComponent(t) },
  { name: 'rot13', apply: (t) => `${rot13(t)}` },
  { name: 'hex', apply: (t) => Buffer.from(t, 'utf8').toString('hex') },
];

import { describe } from 'node:test';
import { itIsLinear } from '../../../test/support/linearity.js';
import type { HostileInput } from '../hostile-inputs.js';

function repeated(unit: string): HostileInput['make'] {
  return (n) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

// Many findings of two kinds that the engine compares with each other: names beside addresses (a name inside
// an address is dropped), numbers beside account-number shapes (a number inside one is dropped), short digit
// groups beside card numbers (a group right after a card is its security code). Each comparison must not
// test every finding of one kind against every finding of the other.
const MANY_FINDINGS: HostileInput[] = [
  {
    name: 'names beside addresses',
    make: repeated('Anna Keller lives at 12 Main Street, Springfield, IL 62704. '),
  },
  {
    name: 'phones beside IBAN shapes',
    make: repeated('Call +41 44 668 18 00 about CH93 0076 2011 6238 5295 7. '),
  },
  { name: 'cards beside short groups', make: repeated('Pay 4111 1111 1111 1111, 123 and 456. ') },
  // German streets named by a preposition, found by their own rules (address word, block line, postcode),
  // and their look-alikes on one long line (each reads a bounded stretch around itself).
  {
    name: 'German streets without a type ending',
    make: repeated('Anschrift: Am Bach 5\nZur Linde 3\nIm Winkel 12, 8400 Winterthur\nAuf dem Berg 2 '),
  },
  {
    name: 'their look-alikes on one line',
    make: repeated('Am Montag 5 Personen, Im Raum 12 und Am Bach 7 '),
  },
  // National numbers that one region claims and others would read as valid: each window is read once.
  { name: 'British drama numbers', make: repeated('Call Tom on 07700 900893 or 01632 960123 please. ') },
  // The trial's spellings: dotted card groups beside dotted look-alikes (one long dotted run too), and e-mail
  // addresses with encoded or full-width at signs and dots, each beside an encoded link it must not read again.
  {
    name: 'dotted cards and dotted numbers',
    make: repeated('Card 4111.1111.1111.1111, v1.2.3.4 1.2.3.4.5.6.7.8 '),
  },
  { name: 'one dotted run', make: repeated('4111.') },
  {
    name: 'encoded and full-width addresses',
    make: repeated('to ann%40example.com u%3Fto%3Dbea%40example%2Eorg cleo\uFF20example\uFF0Enet 50%40 '),
  },
  // Numbers in other scripts (folded once, mathematical digits through an offset map), IBANs grouped with
  // dots, hyphens and no-break spaces beside their look-alikes, and addresses written with (at) and (dot):
  // each sign reads a bounded window before it and a bounded domain after it.
  {
    name: 'numbers in other scripts',
    make: repeated(
      'Karte ４１１１　１１１１　１１１１　１１１１ Tel ٠٤٤ ٦٦٨ ١٨ ٠٠ card 𝟒𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 ',
    ),
  },
  {
    name: 'separated IBANs and look-alikes',
    make: repeated(
      'CH93.0076.2011.6238.5295.7 CH93-0076-2011-6238-5295-8-1 CH93\u00a00076\u00a02011\u00a06238 ',
    ),
  },
  { name: 'one hyphenated run', make: repeated('ab12-') },
  {
    name: 'obfuscated addresses',
    make: repeated('ann (at) example (dot) com, x [at] y, AT b DOT c (at) (dot) arobase a.b.c.d '),
  },
  { name: 'bracketed dots without a sign', make: repeated('a (dot) ') },
  { name: 'signs without a domain', make: repeated('a (at) ') },
  // Digit groups with no-break, narrow no-break and thin spaces (read as spaces): cards running into the
  // next number (each run tries a few of its own fronts), phones after numbers and ids; lower-case names.
  {
    name: 'numbers grouped with no-break and thin spaces',
    make: repeated(
      'carte 4111\u00a01111\u00a01111\u00a01111\u00a081 rue, 10EB14064\u202f021 488 11 22\u2009+33 6 37 85 28 64 ',
    ),
  },
  { name: 'one spaced digit run', make: repeated('4111\u202f') },
  {
    name: 'lower-case names and look-alikes',
    make: repeated('i met jean dupont and the david brown mia villa '),
  },
];

// Imported inside the test, after the work meter has started block coverage.
describe('DLP engine on hostile input', () => {
  itIsLinear('detectEntities', async () => {
    const { detectEntities } = await import('./index.js');
    return (make, n) => {
      const text = make(n);
      return () => detectEntities(text);
    };
  });
  itIsLinear(
    'detectEntities with many findings',
    async () => {
      const { detectEntities } = await import('./index.js');
      return (make, n) => {
        const text = make(n);
        return () => detectEntities(text);
      };
    },
    MANY_FINDINGS,
  );
  itIsLinear('tokenize', async () => {
    const { createTokenMap, tokenize } = await import('./index.js');
    const key = new Uint8Array(32).fill(7);
    return (make, n) => {
      const text = make(n);
      return () => tokenize(text, createTokenMap(), key);
    };
  });
});

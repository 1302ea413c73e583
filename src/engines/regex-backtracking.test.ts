import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkSync } from 'recheck';
import ts from 'typescript';

// Every engine must be linear in its input (issue 15). The work meter (test/support/linearity.ts) counts the
// JavaScript an engine runs, not the steps of a regular expression inside one call, so a pattern that
// backtracks over a long run (`\d+(?:\.\d+)+` on a run of digits, `[!?]+$` on a run of marks that stops
// before the end) went unseen until a review timed it by hand. This test reads every regular-expression
// literal of src/engines and asks recheck's automaton checker (a static ReDoS analysis) whether some input
// makes it super-linear. A pattern it finds vulnerable fails the test unless it is listed below with the
// reason its input is bounded. Patterns built at run time (`new RegExp` from lexicons) are not read here;
// the linearity tests of each engine cover them.

const ENGINES = dirname(fileURLToPath(import.meta.url));

/**
 * Vulnerable in general, bounded where they are used: file (relative to src/engines), the pattern's source,
 * and why the text it runs on cannot be long.
 */
const BOUNDED: ReadonlyArray<{ file: string; source: string; why: string }> = [
  {
    file: 'dlp/detectors/names.ts',
    source: '(?:^|[.!?:;\\n"“«(]\\s*|^\\s*)$',
    why: 'atSentenceStart tests the 4 characters before a word',
  },
  { file: 'dlp/detectors/names.ts', source: '\\n\\s*$', why: 'the same 4 characters' },
  {
    file: 'dlp/detectors/names.ts',
    source: '^[ \\t]*[,:!.]?[ \\t]*(?:\\r?\\n|$)',
    why: 'aloneOnLine tests the 12 characters after a word',
  },
  {
    file: 'dlp/detectors/phones.ts',
    source: '\\s*(?:ext\\.?|x|#)\\s*\\d{1,5}$',
    why: 'a phone window: at most 26 characters of the number pattern plus an extension of 5 digits',
  },
  { file: 'dlp/detectors/phones.ts', source: '[ .\\/-]+\\d$', why: 'the same phone window' },
  {
    file: 'hallucination/numbers.ts',
    source: '^(\\p{L}+?)und(\\p{L}+)$',
    why: 'run only on a word of letters (checked first), where the lazy group stops at the first "und"',
  },
  {
    file: 'hallucination/numbers.ts',
    source: '^(\\p{L}+?)(jährig|jahrig)\\p{L}*$',
    why: 'run only on a word of letters (checked first), where the lazy group stops at the first "jährig"',
  },
  {
    file: 'hallucination/split.ts',
    source: '([\\p{L}\\d.]+)$',
    why: 'the word before an abbreviation: run on the 12 characters before it',
  },
];

/**
 * Patterns the checker cannot analyse (a look-behind or a look-ahead it does not support), each with the reason
 * it is linear. A new such pattern fails until it is listed here with its reason: printed only, a future
 * quadratic look-behind pattern would have passed (review of 2026-11-28). `starts` is the source's beginning.
 */
const UNDECIDED: ReadonlyArray<{ file: string; starts: string; why: string }> = [
  {
    file: 'detection/normalize.ts',
    starts: '(?<![a-z])[a-z]{2,}[^a-z]+',
    why: 'starts only at the first letter of a run; the first run can end only where the letters end, so each start reads its run and the gap after it once',
  },
  {
    file: 'dlp/detectors/financial.ts',
    starts: '(?<!\\d)\\d+(?:\\.\\d+)+',
    why: 'starts only at the first digit of a run; each \\d+ can end only before a dot or the run end, so a start reads its run once',
  },
  {
    file: 'dlp/detectors/financial.ts',
    starts: '(?<![\\p{L}])(?:order|invoice',
    why: 'OTHER_NUMBER: run by contextBefore on the 40 characters before a number',
  },
  {
    file: 'dlp/detectors/phones.ts',
    starts: '(?<![\\p{L}])(?:passport|passeport',
    why: 'OTHER_IDENTIFIER: run by contextBefore on the 40 characters before a number',
  },
  {
    file: 'dlp/detectors/secrets.ts',
    starts: '^(?=.*\\p{L})(?=.*[\\p{N}',
    why: 'SECRET_SHAPED: anchored at the start without the m flag, so tried once; each look-ahead reads the value once, and the value is a token of at most 64 characters',
  },
  {
    file: 'hallucination/numbers.ts',
    starts: '(?<![\\p{L}\\d.,])([-−]?\\d{1,3}',
    why: 'starts only at the first digit (or sign) of a number; both alternatives read digit groups left to right, each group ending at a separator, so a start reads its number once',
  },
  {
    file: 'hallucination/split.ts',
    starts: '(?<![.!?…])([.!?…]+)',
    why: 'the mark alternative starts only at the first mark of a run; the newline alternatives read one whitespace run from a newline and consume it when they match',
  },
  {
    file: 'hallucination/split.ts',
    starts: '(?:,|(?<![\\s,]))\\s+(?:and|but',
    why: 'starts only at a comma or the first space of a run; giving back spaces leaves a space where a word must start, so a start reads its run once',
  },
];

/**
 * Patterns whose automaton the checker does not finish building within seconds (long keyword alternations,
 * large counted repetitions): file and the start of the source. They are not checked here, so that the
 * verdict does not depend on how loaded the machine is (a timeout under load once hid a vulnerable pattern
 * that a quiet run then found); the engines' linearity tests and hostile benchmarks cover them. Any other
 * pattern that times out fails the test.
 */
const TOO_LARGE: ReadonlyArray<{ file: string; starts: string }> = [
  { file: 'detection/context.ts', starts: '\\b(?:prompt\\s+injections?' },
  { file: 'detection/harm.ts', starts: '\\b(?:imagine|pretend' },
  { file: 'detection/harm.ts', starts: '\\b(?:disinformation' },
  { file: 'dlp/detectors/phones.ts', starts: '(?:\\+|\\b00|\\(|\\b)\\d' },
  { file: 'dlp/detectors/secrets.ts', starts: '\\bglpat-' },
  { file: 'dlp/detectors/secrets.ts', starts: '\\bsk-' },
  { file: 'dlp/detectors/secrets.ts', starts: 'https:\\/\\/hooks' },
  { file: 'dlp/detectors/secrets.ts', starts: '\\b(?:al|sw)_live_' },
  { file: 'dlp/detectors/secrets.ts', starts: '\\beyJ' },
  { file: 'dlp/detectors/secrets.ts', starts: '-----BEGIN ' },
  { file: 'dlp/detectors/secrets.ts', starts: '\\b(?:api[_ -]?key' },
  { file: 'dlp/detectors/secrets.ts', starts: '^(?:x+|' },
  { file: 'hallucination/split.ts', starts: ',\\s+(which|who' },
];

interface Literal {
  file: string;
  line: number;
  source: string;
  flags: string;
}

function literals(): Literal[] {
  const out: Literal[] = [];
  const files = readdirSync(ENGINES, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  for (const file of files) {
    const text = readFileSync(join(ENGINES, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const raw = node.getText(sf);
        const slash = raw.lastIndexOf('/');
        out.push({
          file: relative(ENGINES, join(ENGINES, file)).split('\\').join('/'),
          line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
          source: raw.slice(1, slash),
          flags: raw.slice(slash + 1),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

test('no regular expression of the engines backtracks super-linearly, unless its input is bounded', () => {
  const found = literals();
  // The engines hold hundreds of patterns; an empty list would mean the reader broke, not that all is well.
  assert.ok(found.length > 250, `only ${found.length} patterns read`);
  const failures: string[] = [];
  const undecided: { file: string; source: string; where: string }[] = [];
  const used = new Set<(typeof BOUNDED)[number]>();
  const skipped = new Set<(typeof TOO_LARGE)[number]>();
  for (const r of found) {
    const large = TOO_LARGE.find((x) => x.file === r.file && r.source.startsWith(x.starts));
    if (large) {
      skipped.add(large);
      continue;
    }
    // 'd' and 'y' change what a match reports or where it may start, not how the pattern backtracks.
    const result = checkSync(r.source, r.flags.replace(/[dy]/g, ''), {
      checker: 'automaton',
      // Wall time: generous, so that a loaded machine does not turn a slow answer into a failure.
      timeout: 60_000,
    });
    const where = `${r.file}:${r.line} /${r.source}/${r.flags}`;
    if (result.status === 'vulnerable') {
      const bounded = BOUNDED.find((b) => b.file === r.file && b.source === r.source);
      if (bounded) used.add(bounded);
      else
        failures.push(
          `${where}: ${result.complexity.type}${'degree' in result.complexity ? ` (degree ${result.complexity.degree})` : ''}, e.g. ${result.attack.pattern}`,
        );
    } else if (result.status === 'unknown' && result.error.kind === 'timeout') {
      failures.push(`${where}: the checker timed out (list it in TOO_LARGE if it is a large alternation)`);
    } else if (result.status === 'unknown') {
      undecided.push({ file: r.file, source: r.source, where: `${where}: ${result.error.kind}` });
    }
  }
  // What the checker does not support (look-behind, look-ahead with captures) must be listed with why it is
  // linear; the engines' linearity tests and hostile benchmarks cover the listed ones as well.
  const unlisted = undecided.filter(
    (u) => !UNDECIDED.some((x) => u.file === x.file && u.source.startsWith(x.starts)),
  );
  const staleUndecided = UNDECIDED.filter(
    (x) => !undecided.some((u) => u.file === x.file && u.source.startsWith(x.starts)),
  );
  assert.deepEqual(
    unlisted.map((u) => u.where),
    [],
    'the checker cannot decide these patterns: list each in UNDECIDED with why it is linear, or rewrite it',
  );
  assert.deepEqual(
    staleUndecided.map((x) => `${x.file} /${x.starts}…/`),
    [],
    'listed as undecided but no longer found undecided',
  );
  const stale = BOUNDED.filter((b) => !used.has(b)).map((b) => `${b.file} /${b.source}/`);
  assert.deepEqual(
    TOO_LARGE.filter((x) => !skipped.has(x)).map((x) => `${x.file} /${x.starts}…/`),
    [],
    'listed as too large but no longer found',
  );
  assert.deepEqual(failures, [], `super-linear patterns:\n${failures.join('\n')}`);
  assert.deepEqual(stale, [], `listed as bounded but no longer found vulnerable:\n${stale.join('\n')}`);
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chartPrinted, printedRows } from '../scripts/printed-chart.js';
import { barChartSvg, binaryGroups, writeChart } from '../scripts/svg-chart.js';

describe('the SVG chart of bench and eval figures', () => {
  const chart = {
    title: 'Recall <per> source & language',
    subtitle: 'a "test"',
    measures: ['recall', 'false positives'],
    rows: [
      { label: 'bipia', values: [91.5, 2] },
      { label: 'team', values: [Number.NaN, 0.5] },
    ],
    unit: '%',
    max: 100,
  };

  it('draws one bar per measure and row, escapes text, marks missing values, and is deterministic', () => {
    const svg = barChartSvg(chart);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.ok(svg.includes('Recall &lt;per&gt; source &amp; language'));
    assert.ok(svg.includes('a &quot;test&quot;'));
    assert.equal((svg.match(/<rect x="\d+" y="\d+" width="[\d.]+" height="14"/g) ?? []).length, 3);
    assert.ok(svg.includes('91.5%') && svg.includes('n/a'));
    assert.equal(svg, barChartSvg(chart));
  });

  it('writes docs/images/<name>.svg (or PARAPET_CHART_DIR)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parapet-chart-'));
    process.env['PARAPET_CHART_DIR'] = dir;
    try {
      const file = writeChart('Eval DLP: exact span', chart);
      assert.equal(file, join(dir, 'eval-dlp-exact-span.svg'));
      assert.equal(readFileSync(file, 'utf8'), barChartSvg(chart));
    } finally {
      delete process.env['PARAPET_CHART_DIR'];
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('groups binary verdicts into recall, false-positive rate and balanced accuracy', () => {
    const rows = [
      { label: 1, flagged: true, lang: 'en' },
      { label: 1, flagged: false, lang: 'en' },
      { label: 0, flagged: false, lang: 'en' },
      { label: 0, flagged: false, lang: 'en' },
      { label: 1, flagged: true, lang: 'fr' },
    ];
    assert.deepEqual(
      binaryGroups(rows, (r) => r.lang),
      [
        { label: 'en (4)', values: [50, 0, 75] },
        { label: 'fr (1)', values: [100, Number.NaN, Number.NaN] },
      ],
    );
  });

  it('wraps a long subtitle onto several lines instead of running off the picture', () => {
    const long = { ...chart, subtitle: 'word '.repeat(80).trim() };
    const lines = barChartSvg(long).match(/<text x="12" y="\d+"[^>]*fill="#4b5563">word[^<]*<\/text>/g) ?? [];
    assert.ok(lines.length >= 2, `subtitle lines: ${lines.length}`);
    assert.equal(lines.join(' ').match(/word/g)?.length, 80);
  });
});

describe('charts from the lines a bench printed', () => {
  const line = /^(?<label>.+?)\s+p50 (?<p50>[\d.]+) ms(?:\s+p99 (?<p99>[\d.]+) ms)?/;

  it('turns every matching printed line into a row, with section prefixes and missing groups as n/a', () => {
    const tag = `t${process.pid}`;
    console.log(`${tag} HTTP, 1 process:`);
    console.log(`${tag} detect   p50 1.5 ms   p99 4.25 ms   CPU 0.3 ms`);
    console.log(`${tag} unrelated line`);
    console.log(`${tag} HTTP, 2 processes:`);
    console.log(`${tag} detect   p50 1.25 ms`);
    console.log(`${tag} drained 40 ev/s`);
    const rows = printedRows({
      line: new RegExp(`^${tag} ${line.source.slice(1)}`),
      section: new RegExp(`^${tag} HTTP, (.+):$`),
      measures: [
        ['p50', 'p50'],
        ['p99', 'p99'],
      ],
    });
    assert.deepEqual(rows, [
      { label: '1 process: detect', values: [1.5, 4.25] },
      { label: '2 processes: detect', values: [1.25, Number.NaN] },
    ]);
    // 'a|b': the first group of several alternatives that matched
    assert.deepEqual(
      printedRows({
        line: new RegExp(`^${tag} (?:(?<label>drained) (?<d>\\d+) ev/s|(?<other>x) (?<o>\\d+))`),
        measures: [['rate', 'o|d']],
      }),
      [{ label: 'drained', values: [40] }],
    );
  });

  it('writes the chart with its settings and load in the subtitle, and fails the run when nothing matched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parapet-chart-'));
    process.env['PARAPET_CHART_DIR'] = dir;
    const exitCode = process.exitCode;
    try {
      console.log('printed-chart-test  p50 2 ms  p99 3 ms');
      chartPrinted('bench-test', {
        title: 'test',
        line: /^(?<label>printed-chart-test)\s+p50 (?<p50>[\d.]+) ms\s+p99 (?<p99>[\d.]+) ms/,
        measures: [
          ['p50', 'p50'],
          ['p99', 'p99'],
        ],
        settings: { ROUNDS: 3 },
        unit: ' ms',
      });
      const svg = readFileSync(join(dir, 'bench-test.svg'), 'utf8');
      assert.match(svg, /ROUNDS=3; \d{4}-\d{2}-\d{2}, load \d+\.\d{2}/);
      assert.ok(svg.includes('2.0 ms') && svg.includes('3.0 ms'));
      chartPrinted('bench-none', { title: 'none', line: /^never printed \d+$/, measures: [['x', 'x']] });
      assert.equal(process.exitCode, 1);
      assert.throws(() => readFileSync(join(dir, 'bench-none.svg')));
    } finally {
      process.exitCode = exitCode;
      delete process.env['PARAPET_CHART_DIR'];
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
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
    assert.deepEqual(binaryGroups(rows, (r) => r.lang), [
      { label: 'en (4)', values: [50, 0, 75] },
      { label: 'fr (1)', values: [100, Number.NaN, Number.NaN] },
    ]);
  });
});

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

// The README and the docs show pictures and charts from docs/images; a chart renamed by its bench, or one
// never generated, would leave a broken image that nobody notices on a text diff.
test('every image the README and docs/ show exists', () => {
  const missing: string[] = [];
  let seen = 0;
  for (const file of [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/!\[[^\]]*\]\(([^)\s]+\.(?:svg|png))\)/g)) {
      seen++;
      const target = join(dirname(file), m[1]!);
      if (!existsSync(target)) missing.push(`${file.slice(root.length)} → ${m[1]}`);
    }
  }
  assert.ok(seen > 20, `images found: ${seen}`);
  assert.deepEqual(missing, []);
});

// Issue 24: `npm run bench` and `npm run eval` draw SVG charts beside their tables. Every script of the two
// groups must call one of the chart writers of scripts/ and have its row in docs/charts.md, so a new bench
// without a chart, or a chart nobody can find, fails here.
test('every bench and eval script draws its charts and is listed in docs/charts.md', () => {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  const charts = readFileSync(join(root, 'docs', 'charts.md'), 'utf8');
  const problems: string[] = [];
  const names = Object.keys(scripts).filter((n) => /^(bench|eval):/.test(n));
  assert.ok(names.length >= 15, `scripts found: ${names.length}`);
  for (const name of names) {
    const entry = scripts[name]!.split(/\s+/).find((w) => /\.(ts|mjs|js)$/.test(w));
    if (!entry) {
      problems.push(`${name}: no script file in "${scripts[name]}"`);
      continue;
    }
    const source = readFileSync(join(root, entry), 'utf8');
    if (!/\b(chartPrinted|writeChart)\(/.test(source)) problems.push(`${name}: ${entry} draws no chart`);
    if (!charts.includes(`\`npm run ${name}\``) && !charts.includes(`\`npm run ${name} `)) {
      problems.push(`${name}: not in docs/charts.md`);
    }
  }
  assert.deepEqual(problems, []);
});

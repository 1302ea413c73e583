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

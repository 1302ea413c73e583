import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { build } from 'esbuild';
import { type BuildResult, buildExtension, noNodeBuiltins } from '../build.js';

let dir: string;
let result: BuildResult;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parapet-ext-build-'));
  result = await buildExtension(join(dir, 'out'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Reads the names and contents of a zip written by zipFolder (deflate entries). */
function unzip(file: string): Map<string, Buffer> {
  const buf = readFileSync(file);
  const out = new Map<string, Buffer>();
  let p = 0;
  while (buf.readUInt32LE(p) === 0x04034b50) {
    const size = buf.readUInt32LE(p + 18);
    const nameLen = buf.readUInt16LE(p + 26);
    const name = buf.subarray(p + 30, p + 30 + nameLen).toString();
    const data = buf.subarray(p + 30 + nameLen, p + 30 + nameLen + size);
    out.set(name, inflateRawSync(data));
    p += 30 + nameLen + size;
  }
  return out;
}

describe('npm run build:extension', () => {
  it('writes a Chrome/Edge build with a service worker, MAIN-world hook and managed-storage schema', () => {
    const m = JSON.parse(readFileSync(join(result.dirs.chrome, 'manifest.json'), 'utf8'));
    assert.equal(m.manifest_version, 3);
    assert.equal(m.background.service_worker, 'background.js');
    assert.equal(m.storage.managed_schema, 'managed_schema.json');
    assert.deepEqual(
      m.content_scripts.map((c: { js: string[]; world?: string }) => [c.js[0], c.world ?? 'ISOLATED']),
      [
        ['content.js', 'ISOLATED'],
        ['page-hook.js', 'MAIN'],
      ],
    );
    assert.ok(m.content_scripts[0].matches.includes('*://chatgpt.com/*'));
    // OCR (English, French, German, Italian), PDF and Office extraction ship inside the extension: nothing
    // is fetched at run time.
    for (const f of [
      'extract.html',
      'extract.js',
      'pdf.worker.min.mjs',
      'ocr/worker.js',
      'ocr/core/tesseract-core-simd-lstm.wasm.js',
      'ocr/lang/eng.traineddata.gz',
      'ocr/lang/fra.traineddata.gz',
      'ocr/lang/deu.traineddata.gz',
      'ocr/lang/ita.traineddata.gz',
    ])
      assert.ok(existsSync(join(result.dirs.chrome, f)), f);
    assert.ok(m.permissions.includes('offscreen'));
    assert.match(m.content_security_policy.extension_pages, /'wasm-unsafe-eval'/);
    const schema = JSON.parse(readFileSync(join(result.dirs.chrome, 'managed_schema.json'), 'utf8'));
    assert.deepEqual(Object.keys(schema.properties).sort(), ['deviceName', 'enrollmentCode', 'serverUrl']);
  });

  it('writes a Firefox build with background scripts and gecko settings', () => {
    const m = JSON.parse(readFileSync(join(result.dirs.firefox, 'manifest.json'), 'utf8'));
    assert.deepEqual(m.background, { scripts: ['background.js'] });
    assert.equal(m.browser_specific_settings.gecko.id, 'extension@parapet.dev');
    assert.equal(m.storage, undefined);
  });

  it("passes Mozilla's web-ext lint with no error; warnings only in the bundled third-party extractors", () => {
    const bin = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'web-ext');
    const out = execFileSync(
      bin,
      ['lint', '--source-dir', result.dirs.firefox, '--output', 'json', '--no-config-discovery'],
      { encoding: 'utf8' },
    );
    const report = JSON.parse(out) as {
      summary: { errors: number };
      errors: unknown[];
      warnings: Array<{ code: string; file: string }>;
    };
    assert.equal(report.summary.errors, 0, JSON.stringify(report.errors));
    // pdf.js and tesseract's runtime carry `Function(...)` fallbacks; the extension's CSP (no unsafe-eval)
    // keeps them from ever running. Our own scripts have no warning at all.
    for (const w of report.warnings) {
      assert.ok(['extract.js', 'ocr/worker.js', 'pdf.worker.min.mjs'].includes(w.file), JSON.stringify(w));
      assert.ok(['DANGEROUS_EVAL', 'UNSAFE_VAR_ASSIGNMENT'].includes(w.code), JSON.stringify(w));
    }
  });

  it('zips each build; the zip holds the same files', () => {
    for (const t of ['chrome', 'firefox'] as const) {
      const files = unzip(result.zips[t]);
      assert.ok(files.has('manifest.json'));
      assert.deepEqual(files.get('content.js'), readFileSync(join(result.dirs[t], 'content.js')));
    }
  });

  it('the build fails when a bundled module imports a node: built-in', async () => {
    const bad = join(dir, 'bad.ts');
    writeFileSync(bad, "import { readFileSync } from 'node:fs'; export const f = readFileSync;");
    await assert.rejects(
      build({
        entryPoints: [bad],
        bundle: true,
        write: false,
        logLevel: 'silent',
        plugins: [noNodeBuiltins],
      }),
      /node:fs: the extension runs in a browser/,
    );
  });

  it('the engines bundle for the browser platform (detection, dlp, risk) with no node: import', async () => {
    const entry = join(dir, 'engines.ts');
    const engines = join(import.meta.dirname, '..', '..', 'src', 'engines');
    writeFileSync(
      entry,
      ['detection', 'dlp', 'risk']
        .map((e) => `export * as ${e} from ${JSON.stringify(join(engines, e, 'index.ts'))};`)
        .join('\n'),
    );
    const out = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      plugins: [noNodeBuiltins],
    });
    const code = out.outputFiles[0]!.text;
    const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
    const found = mod.dlp.detectEntities('IBAN DE89 3704 0044 0532 0130 00') as Array<{ type: string }>;
    assert.deepEqual(
      found.map((e) => e.type),
      ['IBAN'],
    );
    assert.equal(mod.risk.riskScore(['IBAN', 'EMAIL', 'NAME']).score, 90);
  });
});

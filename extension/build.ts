// npm run build:extension → dist/extension/chrome/ (Chrome and Edge), dist/extension/firefox/, and a zip
// of each. One code base; the manifests differ where the browsers do (background, gecko settings).
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, crc32 } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { loadCatalog } from '../src/modules/shadow-ai/catalog.js';
import { chatHosts } from './src/shared/sites.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

export type Target = 'chrome' | 'firefox';

/** Fails the build when anything bundled for the browser pulls a Node built-in (src/engines must not). */
export const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({
      errors: [{ text: `${args.importer} imports ${args.path}: the extension runs in a browser` }],
    }));
  },
};

const ENTRIES = {
  background: 'src/background/index.ts',
  content: 'src/content/index.ts',
  'page-hook': 'src/page/hook.ts',
  popup: 'src/ui/popup.ts',
  options: 'src/ui/options.ts',
  blocked: 'src/ui/blocked.ts',
};
const STATIC = [
  'src/ui/popup.html',
  'src/ui/options.html',
  'src/ui/blocked.html',
  'src/ui/style.css',
  'src/extract/extract.html',
  'managed_schema.json',
];

// Files the extractor loads at run time, shipped from npm packages (nothing is fetched from a CDN): the
// pdf.js worker, tesseract's core (one build: WebAssembly SIMD, LSTM engine) and the language data of
// English, French, German and Italian (the integer "best" LSTM models).
const ASSETS: Array<[string, string]> = [
  ['node_modules/pdfjs-dist/build/pdf.worker.min.mjs', 'pdf.worker.min.mjs'],
  [
    'node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm.js',
    'ocr/core/tesseract-core-simd-lstm.wasm.js',
  ],
  ...['eng', 'fra', 'deu', 'ita'].map((l): [string, string] => [
    `node_modules/@tesseract.js-data/${l}/4.0.0_best_int/${l}.traineddata.gz`,
    `ocr/lang/${l}.traineddata.gz`,
  ]),
];

export function manifest(target: Target, version: string): Record<string, unknown> {
  const matches = chatHosts().map((h) => `*://${h}/*`);
  const common = {
    manifest_version: 3,
    name: 'Parapet',
    description:
      'Protects what you send to AI services: personal data leaves as tokens, injections are flagged.',
    version,
    // unlimitedStorage: the upload queue lives in storage.local, whose default quota (10 MB) about 250
    // queued proofs fill; past it every write fails, and a device offline for days lost what it queued.
    permissions: [
      'storage',
      'unlimitedStorage',
      'alarms',
      'declarativeNetRequest',
      'webRequest',
      'scripting',
      'tabs',
    ],
    host_permissions: ['<all_urls>'],
    content_scripts: [
      // The isolated script first: it must listen before the MAIN-world hook hands over its port.
      { matches, js: ['content.js'], run_at: 'document_start' },
      { matches, js: ['page-hook.js'], run_at: 'document_start', world: 'MAIN' },
    ],
    action: { default_popup: 'popup.html', default_title: 'Parapet' },
    options_ui: { page: 'options.html', open_in_tab: true },
    web_accessible_resources: [{ resources: ['blocked.html'], matches: ['<all_urls>'] }],
    // WebAssembly for OCR; no remote code, no eval.
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
  };
  if (target === 'chrome')
    return {
      ...common,
      permissions: [...common.permissions, 'offscreen'],
      minimum_chrome_version: '116',
      background: { service_worker: 'background.js' },
      storage: { managed_schema: 'managed_schema.json' },
    };
  return {
    ...common,
    background: { scripts: ['background.js'] },
    browser_specific_settings: {
      gecko: {
        id: 'extension@parapet.dev',
        strict_min_version: '140.0',
        data_collection_permissions: { required: ['none'] },
      },
      gecko_android: { strict_min_version: '142.0' },
    },
  };
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const full = join(dir, n);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

/** A zip (deflate) of a folder, written with zlib: no zip tool needed on the build machine. */
export function zipFolder(dir: string, out: string): void {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files(dir).sort()) {
    const name = Buffer.from(relative(dir, file).split('\\').join('/'));
    const data = readFileSync(file);
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0x0800, 6); // UTF-8 names
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(0x00210000, 10); // fixed time/date (1980-01-01): reproducible archives
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, name, packed);
    centrals.push(central, name);
    offset += head.length + name.length + packed.length;
  }
  const dirBuf = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(dirBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(out, Buffer.concat([...locals, dirBuf, end]));
}

export interface BuildResult {
  dirs: Record<Target, string>;
  zips: Record<Target, string>;
  sizes: Record<string, number>;
}

/**
 * The domains of the AI catalog the server ships (the same file), inlined into the bundles: before its first
 * config the device already treats them as AI sites (bar, hook, radar). A config replaces them.
 */
export function catalogDomains(): string[] {
  return [...new Set(loadCatalog().entries.flatMap((e) => e.domains.map((d) => d.toLowerCase())))].sort();
}

/**
 * Each catalog domain with its entry's category: whether tokenize-before-send starts on there and whether
 * force mode redirects it depend on what kind of site it is (docs/extension.md, "Tokenize by default").
 */
export function catalogCategories(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of loadCatalog().entries) for (const d of e.domains) out[d.toLowerCase()] = e.category;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export async function buildExtension(outRoot = join(root, 'dist', 'extension')): Promise<BuildResult> {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
  rmSync(outRoot, { recursive: true, force: true });
  const staging = join(outRoot, '.bundle');
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([k, v]) => [k, join(here, v)])),
    outdir: staging,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome116', 'firefox128'],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
    define: {
      PARAPET_CATALOG_DOMAINS: JSON.stringify(catalogDomains()),
      PARAPET_CATALOG_CATEGORIES: JSON.stringify(catalogCategories()),
    },
    plugins: [noNodeBuiltins],
  });
  // The extractor is an ES module (pdf.js is one); tesseract's worker is a classic worker script.
  await build({
    entryPoints: { extract: join(here, 'src/extract/index.ts') },
    outdir: staging,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome116', 'firefox128'],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
    plugins: [noNodeBuiltins],
  });
  mkdirSync(join(staging, 'ocr'), { recursive: true });
  await build({
    entryPoints: [join(root, 'node_modules/tesseract.js/src/worker-script/browser/index.js')],
    outfile: join(staging, 'ocr', 'worker.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    define: { global: 'self' },
    inject: [join(here, 'src/extract/buffer-shim.ts')],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
    plugins: [noNodeBuiltins],
  });
  for (const [from, to] of ASSETS) {
    mkdirSync(dirname(join(staging, to)), { recursive: true });
    copyFileSync(join(root, from), join(staging, to));
  }
  const dirs = {} as Record<Target, string>;
  const zips = {} as Record<Target, string>;
  const sizes: Record<string, number> = {};
  for (const target of ['chrome', 'firefox'] as const) {
    const dir = join(outRoot, target);
    mkdirSync(dir, { recursive: true });
    cpSync(staging, dir, { recursive: true });
    for (const f of STATIC) copyFileSync(join(here, f), join(dir, f.split('/').pop()!));
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest(target, version), null, 2)}\n`);
    const zip = join(outRoot, `parapet-${target}-${version}.zip`);
    zipFolder(dir, zip);
    dirs[target] = dir;
    zips[target] = zip;
  }
  for (const f of files(staging)) sizes[relative(staging, f)] = statSync(f).size;
  for (const t of ['chrome', 'firefox'] as const) sizes[`${t}.zip`] = statSync(zips[t]).size;
  rmSync(staging, { recursive: true, force: true });
  return { dirs, zips, sizes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await buildExtension();
  for (const [t, d] of Object.entries(r.dirs))
    console.log(`${t}: ${relative(root, d)}  (zip ${relative(root, r.zips[t as Target])})`);
  for (const [f, n] of Object.entries(r.sizes)) console.log(`  ${f.padEnd(16)} ${(n / 1024).toFixed(1)} KiB`);
}

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const pagesDir = fileURLToPath(new URL('./src/pages/', import.meta.url));

/** The client-side routes, one per page file (src/pages/overview.tsx is `/`): the server answers each with index.html. */
export function pageRoutes(): string[] {
  return readdirSync(pagesDir)
    .filter((f) => f.endsWith('.tsx'))
    .map((f) => f.slice(0, -4))
    .map((name) => (name === 'overview' ? '/' : `/${name}`))
    .sort();
}

function routesManifest(): Plugin {
  return {
    name: 'parapet-routes',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(pageRoutes()) });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  publicDir: false,
  plugins: [routesManifest()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    // no inline <script> or data: module preload: the Content-Security-Policy allows scripts from 'self' only
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});

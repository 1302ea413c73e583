/**
 * The import rules of docs/architecture.md, checked by `npm run lint`. Type-only imports are ignored
 * (tsPreCompilationDeps: false): the rules are about what runs.
 */
module.exports = {
  forbidden: [
    {
      name: 'engines-are-pure',
      comment: 'src/engines runs in Node and in the browser extension: no node:* and no other layer',
      severity: 'error',
      // tests run only in Node; build scripts generate data files and never ship
      from: { path: '^src/engines/', pathNot: ['\\.test\\.ts$', '/build-[^/]+\\.ts$'] },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'engines-import-only-engines',
      severity: 'error',
      from: { path: '^src/engines/' },
      to: { path: '^src/', pathNot: '^src/engines/' },
    },
    {
      name: 'platform-below-modules',
      comment: 'platform never imports modules or main',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|main)/' },
    },
    {
      name: 'modules-not-main',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/main/' },
    },
    {
      name: 'modules-through-index',
      comment: 'a module imports another module only through its index.ts',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'kysely-only-in-repos',
      comment: 'only repositories and platform/storage talk to the query builder',
      severity: 'error',
      from: { path: '^src/', pathNot: ['\\.repo\\.ts$', '^src/platform/storage/', '\\.test\\.ts$'] },
      to: { path: 'node_modules/kysely/' },
    },
    {
      name: 'fastify-only-in-routes',
      comment: 'only routes, platform/http and main know the web framework',
      severity: 'error',
      from: { path: '^src/', pathNot: ['\\.routes\\.ts$', '^src/platform/http/', '^src/main/', '\\.test\\.ts$'] },
      to: { path: 'node_modules/(fastify|@fastify/)' },
    },
    {
      name: 'producers-publish-events',
      comment: 'producers publish events; only main wires the SIEM sinks and webhook delivery',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: ['^src/modules/(siem|events)/'] },
      to: { path: '^src/modules/siem/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|data)/' },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    moduleSystems: ['es6', 'cjs'],
  },
};

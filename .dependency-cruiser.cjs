/**
 * The layer rules, checked by `pnpm lint`: core imports nothing of ours; adapters and localnet
 * import only core; runtime wires them into one composition per process shape; the apps are
 * built from those compositions (never from an adapter or the localnet) and no app imports
 * another app.
 *
 * A workspace import resolves to `packages/<name>/...` once that package is built, and stays the
 * bare name `@token-actions/<name>` when it is not (or, like an app, exports nothing): every rule
 * matches both, so the check holds on a fresh clone before any build.
 */
const OURS_EXCEPT_CORE = '^(packages/(?!core/)[^/]+/|apps/|@token-actions/(?!core(/|$)))';
const ANY_APP = '^(apps/|@token-actions/(server|worker)(/|$))';
const OURS_EXCEPT_CLIENT = '^(packages/(?!client/)[^/]+/|apps/|@token-actions/(?!client(/|$)))';

module.exports = {
  forbidden: [
    {
      name: 'core-imports-nothing-of-ours',
      comment: 'core is the domain: it must not know any adapter, the localnet, the runtime or an app.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: OURS_EXCEPT_CORE },
    },
    {
      name: 'core-no-node-builtins',
      comment: 'core runs anywhere (edge runtimes included): no node:* modules.',
      severity: 'error',
      from: { path: '^packages/core/src/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-is-pure',
      comment:
        'core library code depends on npm only through @scure/base, neverthrow, zod and @oslojs (pure ' +
        'JS hashing and encoding for the OAuth server, no Node APIs): ' +
        'no hono, no @solana/web3.js, no I/O clients.',
      severity: 'error',
      from: { path: '^packages/core/src/', pathNot: '\\.test\\.ts$' },
      // Anything that is not core's own file, a builtin or ours (the rules above) must be one of the
      // three; a package core does not declare cannot even be resolved, and is caught here too.
      to: {
        dependencyTypesNot: ['local', 'core'],
        pathNot: [
          'node_modules/(@scure/base|@oslojs/[^/]+|neverthrow|zod)/',
          '^packages/',
          '^@token-actions/',
        ],
      },
    },
    {
      name: 'adapters-import-only-core',
      comment:
        'adapters implement core ports; they must not reach into the runtime, the localnet or an app. ' +
        'Their tests may run the in-process adapter over a real localnet (a devDependency).',
      severity: 'error',
      from: { path: '^packages/adapters/src/' },
      to: { path: OURS_EXCEPT_CORE, pathNot: '^packages/adapters/' },
    },
    {
      name: 'localnet-imports-only-core',
      comment: 'the localnet is a chain of its own: it may know core, nothing else of ours.',
      severity: 'error',
      from: { path: '^packages/localnet/src/' },
      to: { path: OURS_EXCEPT_CORE, pathNot: '^packages/localnet/' },
    },
    {
      name: 'apps-import-no-adapters',
      comment:
        "an app is built from the runtime's compositions (composeServer, composeEdge, composeWorker, " +
        'composeClientRegistry), so each store is built and wrapped in one place: its source imports ' +
        'no adapter and not the localnet (its tests may).',
      severity: 'error',
      from: { path: '^apps/[^/]+/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(packages/(adapters|localnet)/|@token-actions/(adapters|localnet)(/|$))' },
    },
    {
      name: 'client-imports-nothing-of-ours',
      comment:
        'the client speaks to the service over HTTP only, from the OpenAPI document: it is installed ' +
        'by other projects, without our packages (its scripts start the built server as a process).',
      severity: 'error',
      from: { path: '^packages/client/' },
      to: { path: OURS_EXCEPT_CLIENT },
    },
    {
      name: 'client-no-node-builtins',
      comment:
        'the client runs in browsers and edge runtimes too: no node:* modules outside its tests and scripts.',
      severity: 'error',
      from: { path: '^packages/client/src/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'packages-never-import-apps',
      comment:
        'an app is an entry point, never a library: runtime and every other package stay below the apps.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: ANY_APP },
    },
    {
      name: 'no-app-imports-another-app',
      comment: 'what two apps share belongs in a package (usually @token-actions/runtime).',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: ANY_APP, pathNot: '^(apps/$1/|@token-actions/$1(/|$))' },
    },
    {
      name: 'library-code-no-dev-dependencies',
      comment: 'shipped code must not need what is installed only for tests and builds (tests may).',
      severity: 'error',
      from: {
        path: '^(packages|apps)/[^/]+/src/',
        pathNot: ['\\.test\\.ts$', '/src/testing/'],
      },
      to: { dependencyTypes: ['npm-dev'] },
    },
  ],
  options: {
    // Built output is where workspace imports resolve to: reported as a dependency, never cruised.
    exclude: { path: '^(packages|apps)/[^/]+/(\\.turbo|\\.data|coverage)/' },
    doNotFollow: { path: ['node_modules', '^(packages|apps)/[^/]+/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'node', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
  },
};

// Bundles src/edge.ts into dist/edge/worker.js for workerd (Cloudflare Workers, Miniflare):
// one ES module, compatibility flag nodejs_compat. Prints the raw and gzip sizes.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = `${root}dist/edge/worker.js`;
const builtins = new Set(builtinModules);

// What workerd 2025-07-18 serves under nodejs_compat. Anything else a dependency names (pgpass's
// `fs`, ...) becomes a stub that throws only when used, so a code path the worker never takes does
// not stop the module from loading.
const WORKERD_NODE_MODULES = new Set(
  'assert assert/strict async_hooks buffer crypto diagnostics_channel dns dns/promises events fs/promises module net path path/posix path/win32 process querystring stream stream/consumers stream/promises stream/web string_decoder sys timers timers/promises tls url util util/types zlib'.split(
    ' ',
  ),
);

// esbuild turns a CommonJS `require('events')` in an ESM bundle into a `__require` that throws;
// workerd serves node:* as ES modules whose default export is the module object, so each such
// require goes through a facade that imports it.
const nodeBuiltins = {
  name: 'node-builtins-for-workerd',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      const bare = args.path.replace(/^node:/, '');
      if (!builtins.has(bare)) return undefined;
      if (!WORKERD_NODE_MODULES.has(bare)) return { path: bare, namespace: 'node-builtin-missing' };
      if (args.kind === 'require-call') return { path: bare, namespace: 'node-builtin-facade' };
      return { path: `node:${bare}`, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin-missing' }, (args) => ({
      contents: `const fail = (k) => () => { throw new Error('node:${args.path}.' + k + ' is not available on workerd'); };
module.exports = new Proxy({}, { get: (_, k) => (typeof k === 'symbol' || k === '__esModule' || k === 'then') ? undefined : fail(String(k)) });`,
      loader: 'js',
    }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin-facade' }, (args) => ({
      contents: `import m from 'node:${args.path}'; module.exports = m;`,
      loader: 'js',
    }));
  },
};

// The subpath exports keep these out; reaching one is a build error naming the importer rather
// than a worker that cannot start ("No loader is configured for .node files").
const NEVER_ON_EDGE = [
  'litesvm',
  '@electric-sql/pglite',
  'ioredis',
  'pino',
  '@hono/node-server',
  '@token-actions/localnet',
];
const neverOnEdge = {
  name: 'never-on-edge',
  setup(build) {
    const names = NEVER_ON_EDGE.map((n) => n.replace(/[/.]/g, '\\$&')).join('|');
    build.onResolve({ filter: new RegExp(`^(${names})(/.*)?$`) }, (args) => ({
      errors: [
        {
          text: `${args.path} is Node-only and must not reach the edge bundle (imported by ${args.importer})`,
        },
      ],
    }));
  },
};

await mkdir(`${root}dist/edge`, { recursive: true });
const result = await esbuild.build({
  entryPoints: [`${root}src/edge.ts`],
  outfile,
  bundle: true,
  format: 'esm',
  // `browser` applies package.json "browser" maps (web3.js's fetch-only build, not its Node one).
  platform: 'browser',
  target: 'es2022',
  // `workerd` selects pg-cloudflare's socket; never list import/require (esbuild adds them per call
  // site, and listing `import` broke pg-pool's `class extends Pool`).
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  external: ['cloudflare:*'],
  plugins: [neverOnEdge, nodeBuiltins],
  minify: true,
  sourcemap: 'external',
  metafile: true,
  logLevel: 'warning',
});
await writeFile(`${root}dist/edge/meta.json`, JSON.stringify(result.metafile));
const code = await readFile(outfile);
const gzip = gzipSync(code, { level: 9 }).length;
console.log(`dist/edge/worker.js: ${code.length} bytes, ${gzip} bytes gzip -9`);

import { defineConfig } from 'tsup';

export default defineConfig((cli) => ({
  // `main` is the `pnpm localnet` process: the localnet with its JSON-RPC endpoint.
  entry: { index: 'src/index.ts', main: 'src/main.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  // `build:run` (`tsup --no-dts`, what `pnpm start` builds) keeps the last full build's declarations.
  clean: cli.dts === false ? ['!**/*.d.{ts,cts,mts}'] : true,
  target: 'node20',
  platform: 'node',
}));

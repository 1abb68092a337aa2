import { defineConfig } from 'tsup';

export default defineConfig({
  // `main` is the `pnpm localnet` process: the localnet with its JSON-RPC endpoint.
  entry: { index: 'src/index.ts', main: 'src/main.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

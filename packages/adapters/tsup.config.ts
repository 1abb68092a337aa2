import { defineConfig } from 'tsup';

export default defineConfig({
  // `localnet` is the `pnpm localnet` process (the LiteSVM localnet with its JSON-RPC endpoint).
  entry: { index: 'src/index.ts', localnet: 'src/chain/localnet-main.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

import { defineConfig } from 'tsup';

// The edge worker is bundled apart, for workerd (scripts/build-edge.mjs).
export default defineConfig((cli) => ({
  entry: { main: 'src/main.ts', app: 'src/app.ts', cli: 'src/cli/index.ts' },
  format: ['esm'],
  dts: { entry: { app: 'src/app.ts' } },
  sourcemap: true,
  // `build:run` (`tsup --no-dts`, what `pnpm start` builds) keeps the last full build's declarations.
  clean: cli.dts === false ? ['!**/*.d.{ts,cts,mts}'] : true,
  target: 'node20',
  platform: 'node',
}));

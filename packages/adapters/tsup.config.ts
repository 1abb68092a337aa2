import { defineConfig } from 'tsup';

export default defineConfig((cli) => ({
  // `edge` is a separate entry so an edge bundle never loads the barrel (LiteSVM, PGlite, ioredis).
  entry: { index: 'src/index.ts', edge: 'src/edge.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  // `build:run` (`tsup --no-dts`, what `pnpm start` builds) keeps the last full build's declarations.
  clean: cli.dts === false ? ['!**/*.d.{ts,cts,mts}'] : true,
  target: 'node20',
  platform: 'node',
}));

import { defineConfig } from 'tsup';

export default defineConfig((cli) => ({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  // `build:run` (`tsup --no-dts`, what `pnpm start` builds) keeps the last full build's declarations.
  clean: cli.dts === false ? ['!**/*.d.{ts,cts,mts}'] : true,
  target: 'es2022',
}));

import { defineConfig } from 'tsup';

export default defineConfig({
  // `edge` is a separate entry so an edge bundle never loads the barrel (LiteSVM, PGlite, ioredis).
  entry: { index: 'src/index.ts', edge: 'src/edge.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

import { defineConfig } from 'tsup';

export default defineConfig({
  // `edge` is its own entry: an edge bundle must not load the Node compositions' file system,
  // embedded database, localnet, Redis or Prometheus client.
  entry: { index: 'src/index.ts', edge: 'src/edge.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

import { defineConfig } from 'tsup';

// The edge worker is bundled apart, for workerd (scripts/build-edge.mjs).
export default defineConfig({
  entry: { main: 'src/main.ts', app: 'src/app.ts', cli: 'src/cli/index.ts' },
  format: ['esm'],
  dts: { entry: { app: 'src/app.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts', loops: 'src/loops.ts' },
  format: ['esm'],
  dts: { entry: { loops: 'src/loops.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

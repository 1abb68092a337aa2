import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts', app: 'src/app.ts', edge: 'src/edge.ts', cli: 'src/cli/register-client.ts' },
  format: ['esm'],
  dts: { entry: { app: 'src/app.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

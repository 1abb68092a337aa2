import { defineConfig } from 'tsup';

// An application, not a library: only the process entry is built.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});

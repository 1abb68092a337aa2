import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // The README's example imports the package by name, as another project would; inside the
  // package's own tests that name means its sources, so the example runs without a build.
  resolve: {
    alias: [
      { find: /^@token-actions\/core$/, replacement: src('index.ts') },
      { find: /^@token-actions\/core\/testing$/, replacement: src('testing/index.ts') },
    ],
  },
  test: { include: ['src/**/*.test.ts'] },
});

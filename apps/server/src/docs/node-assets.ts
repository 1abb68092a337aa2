import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DocsBundle } from './assets.js';

/**
 * Scalar's standalone bundle from the installed `@scalar/api-reference` package (no CDN: the
 * reference works on a machine with no internet access). Its package exports only the module
 * entry, so the file is found next to it.
 */
export function nodeDocsBundle(): DocsBundle {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  const root = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const file = join(root, 'dist', 'browser', 'standalone.js');
  return { version, load: async () => new Uint8Array(await readFile(file)) };
}

// Imports a package as the workspace package that depends on it sees it, so the bench runs the
// exact versions the service runs without adding them to the root package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** `importFrom('apps/server', '@token-actions/core/testing')` */
export async function importFrom(workspacePackage, specifier) {
  const base = join(root, workspacePackage);
  const require = createRequire(join(base, 'package.json'));
  try {
    return await import(pathToFileURL(require.resolve(specifier)).href);
  } catch {
    // ESM-only exports (an `import` condition only): follow the package's exports map by hand.
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    const subpath = `.${specifier.slice(name.length)}` || '.';
    const dir = join(base, 'node_modules', name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const entry = pkg.exports?.[subpath === '.' ? '.' : subpath] ?? (subpath === '.' ? pkg.main : undefined);
    const target = typeof entry === 'string' ? entry : (entry?.import ?? entry?.default);
    if (!target) throw new Error(`cannot resolve ${specifier} from ${workspacePackage}`);
    return import(pathToFileURL(join(dir, target)).href);
  }
}

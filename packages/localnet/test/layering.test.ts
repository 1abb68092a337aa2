import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The localnet is a product of its own: of this project's packages it imports core only, and the
 * adapters import it only in their tests. */
const root = new URL('../..', import.meta.url).pathname;
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

function violations(dir: string, allowed: RegExp): string[] {
  return sources(join(root, dir)).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((m) => m[1] ?? m[2]!)
      .filter((spec) => spec.startsWith('@token-actions/') && !allowed.test(spec))
      .map((spec) => `${relative(root, file)} imports ${spec}`),
  );
}

describe('package layering', () => {
  it('localnet imports only @token-actions/core of ours', () => {
    expect(sources(join(root, 'localnet/src')).length).toBeGreaterThan(20);
    expect(violations('localnet/src', /^@token-actions\/core(\/|$)/)).toEqual([]);
  });

  it('adapters never import the localnet outside their tests', () => {
    expect(violations('adapters/src', /^@token-actions\/core(\/|$)/)).toEqual([]);
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The core is pure: no adapters, no HTTP framework, no Node APIs, no Solana SDK. */
const FORBIDDEN = [
  /^node:/,
  /^@token-actions\/(adapters|server|worker)/,
  /^hono/,
  /^@hono\//,
  /^@solana\//,
  /^litesvm/,
  /^pg$/,
  /^@electric-sql\//,
  /^(fs|path|crypto|os|net|http|https|child_process|buffer|url)$/,
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('core layering', () => {
  const root = new URL('.', import.meta.url).pathname;
  const files = sources(root);

  it('reads every source file of the package and no test', () => {
    // Node's own recursive listing, against the walk above: a walk that skipped a folder (or took a
    // test for a source) would let a forbidden import through unseen.
    const listed = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
      .sort();
    expect(files.map((file) => relative(root, file)).sort()).toEqual(listed);
    expect(listed).toContain(join('use-cases', 'payments', 'pipeline', 'record.ts'));
  });

  it('imports nothing outside the domain', () => {
    const violations: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2] ?? m[3]!;
        if (FORBIDDEN.some((re) => re.test(spec))) violations.push(`${relative(root, file)} imports ${spec}`);
      }
      if (/\bprocess\.|\bBuffer\./.test(text)) violations.push(`${relative(root, file)} uses a Node global`);
    }
    expect(violations).toEqual([]);
  });

  it('would catch a forbidden import', () => {
    const sample = "import { Connection } from '@solana/web3.js';\nimport fs from 'node:fs';";
    const specs = [...sample.matchAll(IMPORT)].map((m) => m[1]);
    expect(specs.filter((s) => FORBIDDEN.some((re) => re.test(s!)))).toHaveLength(2);
  });
});

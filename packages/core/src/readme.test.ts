import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The fenced blocks of a markdown text with the given info string. */
function fenced(markdown: string, info: string): string[] {
  const blocks: string[] = [];
  const re = new RegExp(`^\`\`\`${info}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const m of markdown.matchAll(re)) blocks.push(m[1]!);
  return blocks;
}

describe('README', () => {
  let dir: string | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has one TypeScript example, and it runs and prints what the README says', async () => {
    const examples = fenced(readme, 'ts');
    expect(examples).toHaveLength(1);
    const printed = readme.split('It prints:')[1];
    expect(printed).toBeDefined();
    const expected = fenced(printed!, '')[0]!.trimEnd().split('\n');

    // The block is written out unchanged and imported as a module, so what runs is what a reader
    // copies; vitest.config.ts maps the package names to this package's sources.
    dir = await mkdtemp(join(tmpdir(), 'core-readme-'));
    const file = join(dir, 'example.ts');
    await writeFile(file, examples[0]!);
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
    await import(/* @vite-ignore */ file);

    const base58Key = /[1-9A-HJ-NP-Za-km-z]{32,44}/g;
    expect(lines.map((line) => line.replace(base58Key, '<donor>'))).toEqual(expected);
  });
});

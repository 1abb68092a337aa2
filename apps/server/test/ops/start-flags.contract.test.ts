import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The server's Node flags (one V8 helper thread: four of them marking and sweeping at once took
// both cores of a small host from the requests) live in `apps/server`'s start script, which the root's
// `pnpm start` (scripts/start.mjs) and the bench read, and in the README's command for each server at scale.
const root = join(import.meta.dirname, '../../../..');
const startScript = (dir: string): string =>
  JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).scripts.start;
const flagsBefore = (command: string, entry: string): string[] => {
  const words = command.slice(command.lastIndexOf('node ')).split(/\s+/);
  expect(words.at(-1)).toBe(entry);
  return words.slice(1, -1);
};

describe('the server starts with one set of Node flags', () => {
  const own = flagsBefore(startScript('apps/server'), 'dist/main.js');

  it('runs V8 with a single helper thread', () => {
    expect(own).toContain('--v8-pool-size=1');
  });

  it('is started the same way by the root start script and the README', () => {
    // `pnpm start` builds, then runs the server with the flags of apps/server's start script.
    expect(startScript('.')).toBe('node scripts/start.mjs');
    expect(readFileSync(join(root, 'scripts/start.mjs'), 'utf8')).toMatch(
      /readFileSync\(join\(root, 'apps\/server\/package\.json'\), 'utf8'\),?\s*\)\.scripts\.start/,
    );
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const atScale = readme.split('\n').find((line) => line.includes('# each server'));
    expect(atScale).toBeDefined();
    expect(flagsBefore(atScale!.replace(/\s+#.*$/, ''), 'apps/server/dist/main.js')).toEqual(own);
  });
});

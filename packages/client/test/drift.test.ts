/**
 * The drift check: the committed snapshot and types must be what the live document generates.
 * It starts the built server (apps/server/dist), so turbo builds the server before this test.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  GENERATE_COMMAND,
  PACKAGE_DIR,
  renderArtifacts,
  writeArtifacts,
} from '../scripts/generate.js';
import { fetchLiveDocument } from '../scripts/openapi-document.js';

describe('generated client types', () => {
  it('match what the live OpenAPI document generates', { timeout: 300_000 }, async () => {
    const fresh = await renderArtifacts(await fetchLiveDocument());
    const dir = await mkdtemp(join(tmpdir(), 'token-actions-client-drift-'));
    await writeArtifacts(fresh, dir);
    const stale: string[] = [];
    for (const name of ARTIFACTS) {
      const committed = await readFile(join(PACKAGE_DIR, name), 'utf8').catch(() => '');
      if (committed !== fresh[name]) stale.push(name);
    }
    expect(
      stale,
      `stale generated files (${stale.join(', ')}; fresh copies in ${dir}): run \`${GENERATE_COMMAND}\``,
    ).toEqual([]);
  });
});

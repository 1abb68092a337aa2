import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '@token-actions/runtime';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded PostgreSQL directory (`$DATA_DIR/postgres`), stopped, to copy per test. */
    embeddedPostgresTemplate: string;
  }
}

/**
 * Global setup: one embedded PostgreSQL cluster created (initdb) and migrated once per run, which
 * the in-process harness copies into each fresh DATA_DIR instead of running initdb per server.
 * The first start itself (initdb included) stays covered by the tests that start `dist/main.js`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), 'ta-pg-template-'));
  const sql = await openDatabase({ DATA_DIR: root, EMBEDDED_DATABASE: 'postgres' });
  await sql.close();
  project.provide('embeddedPostgresTemplate', join(root, 'postgres'));
  return () => rm(root, { recursive: true, force: true });
}

/** Copies the template into `dataDir/postgres` (owners and modes kept: PostgreSQL checks both). */
export async function copyEmbeddedTemplate(template: string, dataDir: string): Promise<void> {
  await stat(join(template, 'cluster', 'PG_VERSION'));
  await promisify(execFile)('cp', ['-a', template, join(dataDir, 'postgres')]);
}

/**
 * What a missing Redis or PostgreSQL means to a suite that needs one: under CI a failure (a green
 * run must have exercised the real service), elsewhere a skip with a warning that says so.
 * (The adapters' contract suites apply the same rule: packages/adapters/test/support/services.ts.)
 */
export function requireUnderCi(what: string, url: string, reachable: boolean): boolean {
  if (reachable) return true;
  const ci = process.env.CI?.trim().toLowerCase();
  const where = url.replace(/\/\/[^@/]*@/, '//');
  if (ci && ci !== 'false' && ci !== '0') {
    throw new Error(
      `${what} at ${where} is unreachable and CI is set: this suite must run in CI ` +
        '(start the server, or point TEST_REDIS_URL / TEST_DATABASE_URL at it)',
    );
  }
  console.warn(
    `SKIPPED: ${what} at ${where} is unreachable; this suite does not run (CI=true fails instead)`,
  );
  return false;
}

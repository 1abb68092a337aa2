/**
 * The worker as a process of its own. In the embedded default the server runs these loops
 * in-process instead, because one process owns the in-process chain; a standalone worker needs a
 * shared store and a reachable chain (DATABASE_URL + SOLANA_RPC_URL).
 */
const missing = ['DATABASE_URL', 'SOLANA_RPC_URL'].filter((name) => !process.env[name]);
if (missing.length > 0) {
  console.error(
    `the standalone worker needs ${missing.join(' and ')}; with neither, run the server, which runs the worker loops in-process`,
  );
  process.exit(2);
}
console.error('the standalone worker on an RPC chain is not available in this build yet');
process.exit(2);

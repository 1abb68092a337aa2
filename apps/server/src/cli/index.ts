/**
 * The server's command line (`node apps/server/dist/cli.js ...`):
 *   api-keys ..., tenants ...   the admin API of a running server (see admin.ts)
 *   register-client ...         an OAuth client, written straight to the database (see register-client.ts)
 * Without a command word, the arguments are register-client's, as before.
 */
import { ADMIN_USAGE, adminMain } from './admin.js';

async function run(argv: readonly string[]): Promise<number> {
  const [command] = argv;
  if (command === 'api-keys' || command === 'tenants') return adminMain(argv);
  if (command === 'help') {
    process.stdout.write(`${ADMIN_USAGE}\n       cli.js register-client --help\n`);
    return 0;
  }
  // Loaded only when needed: it opens the database, and the admin verbs need none of that.
  const { main: registerClient } = await import('./register-client.js');
  return registerClient(command === 'register-client' ? argv.slice(1) : argv);
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cli failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

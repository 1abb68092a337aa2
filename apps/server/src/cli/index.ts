/**
 * The server's command line (`node apps/server/dist/cli.js <command> ...`):
 *   api-keys ..., tenants ...   the admin API of a running server (admin.ts)
 *   register-client             an OAuth client, through the running server or the database (register-client.ts)
 *   oauth login                 interface B tokens for a wallet (oauth-login.ts)
 *   help, --help, nothing       the commands
 */
import { adminMain, isAdminGroup } from './admin.js';
import { OAUTH_LOGIN_USAGE, oauthLoginMain } from './oauth-login.js';
import { wantsHelp } from './target.js';

export const HELP = `Usage: node apps/server/dist/cli.js <command> [options]

Commands:
  api-keys create|list|revoke|rotate   interface A API keys (admin API)
  tenants list|get|set                 tenants and what their keys may do (admin API)
  register-client                      register an OAuth client for interface B
  oauth login                          sign in with a wallet and print interface B tokens
  help                                 this text

Every command takes --help (e.g. cli.js api-keys --help, cli.js oauth login --help).
They talk to a running server: --url <base url>, else TOKEN_ACTIONS_URL, else baseUrl in
$DATA_DIR/dev-credentials.json (DATA_DIR default .data); the operator token comes from ADMIN_TOKEN,
else adminToken in that file.`;

const OAUTH_USAGE = `Usage: cli.js oauth login [options]   (see cli.js oauth login --help)`;

async function run(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || (command.startsWith('-') && wantsHelp([command]))) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (isAdminGroup(command)) return adminMain(argv);
  if (command === 'oauth') {
    if (rest[0] === 'login') return oauthLoginMain(rest.slice(1));
    if (wantsHelp(rest)) {
      process.stdout.write(`${OAUTH_LOGIN_USAGE}\n`);
      return 0;
    }
    process.stderr.write(
      `${rest[0] === undefined ? 'oauth needs a command' : `unknown command "oauth ${rest[0]}"`}\n\n${OAUTH_USAGE}\n`,
    );
    return 2;
  }
  if (command === 'register-client') {
    // Loaded only when needed: it can open the database, which the other commands never do.
    const { main: registerClient } = await import('./register-client.js');
    return registerClient(rest);
  }
  process.stderr.write(`unknown command "${command}"\n\n${HELP}\n`);
  return 2;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cli failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

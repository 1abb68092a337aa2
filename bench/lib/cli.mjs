// The bench's command line. `--help` prints USAGE.
const args = process.argv.slice(2);
export const flag = (name) => args.includes(`--${name}`);
export const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
export const DURATION = Number(option('duration', 10));
/** `--only track` or `--only donate`: one service measure (with --profile, a profile of just it). */
export const ONLY = option('only', undefined);
export const wants = (name) => ONLY === undefined || ONLY === name;
export const CONNECTIONS = Number(option('connections', 10));
/** `--database postgres`: every measure on a fresh PostgreSQL database of DATABASE_URL's server. */
export const DATABASE = option('database', 'embedded');
if (DATABASE !== 'embedded' && DATABASE !== 'postgres') {
  process.stderr.write('--database must be embedded or postgres\n');
  process.exit(2);
}
export const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const log = (line) => process.stdout.write(`${line}\n`);

export const USAGE = `Usage: node bench/run.mjs [options]   (pnpm bench builds first, then runs this)

The service on its embedded default under autocannon load, next to the ceilings of its own stack
(a bare Hono route, raw LiteSVM), then the tracking sweep at 10 / 1,000 / 10,000 unsettled
transactions. Prints a table; writes bench/results.json and bench/results.meta.json.

  --duration <s>        seconds per measure (default 10)
  --connections <n>     autocannon connections (default 10)
  --only <measure>      one measure: track, swap, donate, open-quotes, sweep or memory (writes results.<measure>.json)
  --profile             CPU-profile the service, summarised per phase (writes results.profile.json)
  --database <db>       embedded (default: the service's embedded database) or postgres (a fresh
                        database on DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/test)
  --skip-sweep          no tracking sweep of 10,000 records
  --skip-scale          no tracking scale run
  --scale <list>        pending counts of the scale run (default 10,1000,10000)
  --litesvm-count <n>   pre-signed transfers of the raw LiteSVM ceiling (default 40000)
  --help                this text`;

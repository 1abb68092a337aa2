import { boundHeapGrowth } from '@token-actions/runtime';
import pretty from 'pino-pretty';
import { parseConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

async function main() {
  boundHeapGrowth();
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    console.error(String((error as Error).message));
    process.exit(2);
  }
  // A person at a terminal reads one coloured line per event; anything else (a pipe, a file, a
  // log collector) gets pino's JSON, one object a line.
  const terminal = process.stdout.isTTY === true;
  const logger = createLogger(
    config.LOG_LEVEL,
    terminal
      ? pretty({ singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : undefined,
  );
  const running = await startServer(config, logger);
  const { credentials } = running;
  const docs = `${credentials.baseUrl}/v1/docs`;
  const openapi = `${credentials.baseUrl}/v1/openapi.json`;
  if (terminal) {
    // Printed to the terminal on purpose: these are development credentials for the embedded localnet.
    process.stdout.write(
      [
        '',
        `Token Actions listening on ${credentials.baseUrl}`,
        `  docs:           ${docs}`,
        `  openapi:        ${openapi}`,
        `  dev API key:    ${credentials.apiKey}`,
        `  credentials in: ${running.credentialsPath}${credentials.adminToken ? ' (with the admin token)' : ''}`,
        `  try: curl -s -X POST ${credentials.baseUrl}/v1/api/accounts -H "Authorization: Bearer ${credentials.apiKey}"`,
        '',
      ].join('\n'),
    );
  } else {
    // The same news as one JSON line among the logs, whatever LOG_LEVEL (scripts wait for it),
    // and without the key: a log collector keeps what it reads, the key is in the credentials file.
    const line = {
      level: 30,
      time: Date.now(),
      baseUrl: credentials.baseUrl,
      docs,
      openapi,
      credentialsPath: running.credentialsPath,
      msg: `Token Actions listening on ${credentials.baseUrl}`,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('failed to start:', error instanceof Error ? error.message : String(error));
  process.exit(1);
});

import { boundHeapGrowth } from '@token-actions/runtime';
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
  const logger = createLogger(config.LOG_LEVEL);
  const running = await startServer(config, logger);
  const { credentials } = running;
  // Printed to the terminal on purpose: these are development credentials for the embedded localnet.
  process.stdout.write(
    [
      '',
      `Token Actions listening on ${credentials.baseUrl}`,
      `  docs:           ${credentials.baseUrl}/v1/docs`,
      `  openapi:        ${credentials.baseUrl}/v1/openapi.json`,
      `  dev API key:    ${credentials.apiKey}`,
      `  credentials in: ${running.credentialsPath}${credentials.adminToken ? ' (with the admin token)' : ''}`,
      `  try: curl -s -X POST ${credentials.baseUrl}/v1/api/accounts -H "Authorization: Bearer ${credentials.apiKey}"`,
      '',
    ].join('\n'),
  );

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

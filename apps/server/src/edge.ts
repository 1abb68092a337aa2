import { createApp } from './app.js';
import type { AppServices } from './services.js';

/**
 * Edge entry: the same app behind `export default { fetch }`. An edge runtime has no in-process
 * chain or embedded database, so the host composes HTTP-reachable adapters (an RPC chain, a
 * PostgreSQL store over a network driver) and hands them in.
 */
export function createEdgeHandler(services: AppServices) {
  const app = createApp(services);
  return { fetch: app.fetch };
}

export default createEdgeHandler;

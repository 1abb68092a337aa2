export type { components, operations, paths, webhooks } from './generated/openapi.js';

// The instruments are created by the runtime's server composition; the HTTP layer reads their type here.
export type { ServerMetrics } from '@token-actions/runtime/edge';

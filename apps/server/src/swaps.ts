// The swap side the routes read: composed by the runtime (its pools, webhooks and the inbound
// notification verifier), named here so the routes need no path into the runtime's compositions.
export type { SwapComposition } from '@token-actions/runtime/edge';

/** Kept so the edge (and its tests) hash a presented secret exactly as the protocol stores it. */
export { hashSecret, randomId } from '@token-actions/core';

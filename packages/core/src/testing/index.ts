export * from './chain.js';
export * from './clock.js';
export * from './deps.js';
export * from './fee-oracle.js';
export * from './keystore.js';
export * from './oauth.js';
export * from './rate-limit.js';
export * from './store.js';

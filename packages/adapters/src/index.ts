export * from './chain/index.js';
export * from './crypto/index.js';
export * from './fees/index.js';
export * from './keystore/index.js';
export * from './oauth/index.js';
export * from './ratelimit/index.js';
export * from './store/index.js';

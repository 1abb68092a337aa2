export * from './pg-store.js';
export { type AccessTokenCacheOptions, withAccessTokenCache } from './token-cache.js';

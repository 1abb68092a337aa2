export * from './memory.js';
export * from './redis.js';

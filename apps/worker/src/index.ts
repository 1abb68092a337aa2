export * from './compose.js';
export * from './config.js';
export * from './loops.js';
export * from './swaps.js';

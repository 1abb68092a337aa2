export * from './config.js';
export * from './compose.js';
export * from './loops.js';
export * from './swaps.js';
